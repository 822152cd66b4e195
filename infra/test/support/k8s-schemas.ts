import { ConfigMap, Namespace, Secret, Service } from "kubernetes-models/v1";
import { Deployment } from "kubernetes-models/apps/v1";
import { CronJob } from "kubernetes-models/batch/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Ingress, NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject";
import type { K8sObject } from "./kustomize.ts";

type ModelClass = new (data: never) => { validate(): void };

// The kinds our manifests may contain, each with the OpenAPI schema of its API version
// (Kubernetes' own for core kinds, KEDA's CRD schema for ScaledObject). A kind missing here
// fails validation: a new kind needs a schema before it ships.
const models: Record<string, ModelClass> = {
  "v1/Namespace": Namespace,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "batch/v1/CronJob": CronJob,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "networking.k8s.io/v1/Ingress": Ingress,
  "keda.sh/v1alpha1/ScaledObject": ScaledObject,
};

/** Schema errors of one object as readable lines; empty when it is valid. */
export function schemaErrors(object: K8sObject): string[] {
  const key = `${object.apiVersion}/${object.kind}`;
  const Ctor = models[key];
  if (!Ctor) return [`no schema known for ${key}`];
  try {
    new Ctor(object as never).validate();
    return [];
  } catch (err) {
    return [`${key} ${object.metadata.name}: ${err instanceof Error ? err.message : String(err)}`];
  }
}
