import { execFileSync } from "node:child_process";
import { parseAllDocuments } from "yaml";
import { fromRoot } from "./paths.ts";

/** A rendered Kubernetes object, loosely typed: tests read the fields they assert on. */
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; [key: string]: unknown };

export const overlays = ["dev", "prod"] as const;
export type Overlay = (typeof overlays)[number];

const kubectl = process.env.KUBECTL ?? "kubectl";

/**
 * Renders an overlay with kubectl's built-in kustomize, offline. Needs kubectl on PATH (or
 * KUBECTL): on a machine without it the test fails with this message instead of passing
 * vacuously.
 */
export function renderOverlay(overlay: Overlay): K8sObject[] {
  let out: string;
  try {
    out = execFileSync(kubectl, ["kustomize", fromRoot(`infra/k8s/overlays/${overlay}`)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new Error(`\`${kubectl} kustomize\` failed for overlay ${overlay} (is kubectl installed? set KUBECTL to its path): ${detail}`, { cause: err });
  }
  return parseYamlStream(out);
}

export function parseYamlStream(text: string): K8sObject[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join("\n"));
    const value = doc.toJS() as K8sObject | null;
    return value === null ? [] : [value];
  });
}

export function byKind<T = K8sObject>(objects: K8sObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as T[];
}

export function named<T = K8sObject>(objects: K8sObject[], kind: string, name: string): T {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found as T;
}
