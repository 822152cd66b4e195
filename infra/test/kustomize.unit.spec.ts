import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import type { IDeployment } from "kubernetes-models/apps/v1";
import { Job, type ICronJob, type IJob } from "kubernetes-models/batch/v1";
import type { IHorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import type { IConfigMap, IContainer, IPodSpec, IService } from "kubernetes-models/v1";
import type { IScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject";
import { topology } from "@adrank/messaging";
import { ModelsEnv } from "@adrank/models";
import { loadConfig } from "@adrank/runtime";
import { schemaErrors } from "./support/k8s-schemas.ts";
import { byKind, named, overlays, parseYamlStream, renderOverlay, type K8sObject, type Overlay } from "./support/kustomize.ts";
import { selects, type LabelSelector } from "./support/label-selector.ts";
import { fromRoot } from "./support/paths.ts";
import { deployedServices, lagScaledServices, servicesInRepository } from "./support/services.ts";

const rendered = {} as Record<Overlay, K8sObject[]>;
beforeAll(() => {
  for (const overlay of overlays) rendered[overlay] = renderOverlay(overlay);
});

const deployments = (overlay: Overlay) => byKind<IDeployment>(rendered[overlay], "Deployment");
const jobs = (overlay: Overlay) => byKind<IJob>(rendered[overlay], "Job");
const cronJobs = (overlay: Overlay) => byKind<ICronJob>(rendered[overlay], "CronJob");
const podLabels = (d: IDeployment) => d.spec!.template.metadata!.labels ?? {};

/** Every workload's pod (Deployments, the migrate Job and the CronJobs' Jobs), named by its kind and name. */
const workloads = (overlay: Overlay): Array<{ name: string; pod: IPodSpec }> => [
  ...deployments(overlay).map((d) => ({ name: `Deployment/${d.metadata!.name}`, pod: d.spec!.template.spec! })),
  ...jobs(overlay).map((j) => ({ name: `Job/${j.metadata!.name}`, pod: j.spec!.template.spec! })),
  ...cronJobs(overlay).map((c) => ({ name: `CronJob/${c.metadata!.name}`, pod: c.spec!.jobTemplate.spec!.template.spec! })),
];
const allContainers = (pod: IPodSpec) => [...(pod.initContainers ?? []), ...pod.containers];

const DATABASE_SECRET = "adrank-database";
/**
 * The keys of the database Secret a container reads: "*" when it takes the whole Secret
 * (envFrom), else each secretKeyRef's key, as `VARIABLE=KEY`.
 */
const databaseKeys = (c: IContainer): string[] => [
  ...(c.envFrom ?? []).filter((e) => e.secretRef?.name === DATABASE_SECRET).map(() => "*"),
  ...(c.env ?? []).filter((e) => e.valueFrom?.secretKeyRef?.name === DATABASE_SECRET).map((e) => `${e.name}=${e.valueFrom!.secretKeyRef!.key}`),
];

const MIGRATE_IMAGE = /(^|\/)(adrank\/)?migrate:/;
const command = (c: IContainer) => [...(c.command ?? []), ...(c.args ?? [])];
/** A container that would apply migrations: the migrate image as built (its CMD migrates), or migrate-cli without --check. */
const runsMigrations = (c: IContainer) => {
  const argv = command(c);
  if (argv.length === 0) return MIGRATE_IMAGE.test(c.image ?? "");
  return argv.some((a) => a.endsWith("migrate-cli.ts")) && !argv.includes("--check");
};

/** Schema errors; the Job's schema is Kubernetes' batch/v1 one (support/k8s-schemas.ts knows the other kinds). */
function objectSchemaErrors(object: K8sObject): string[] {
  if (object.apiVersion !== "batch/v1" || object.kind !== "Job") return schemaErrors(object);
  try {
    new Job(object as never).validate();
    return [];
  } catch (err) {
    return [`batch/v1/Job ${object.metadata.name}: ${err instanceof Error ? err.message : String(err)}`];
  }
}

/** Replicas a service keeps at the least: its autoscaler's minimum, else its fixed count. */
function minimumReplicas(objects: K8sObject[], name: string): number {
  const hpa = byKind<IHorizontalPodAutoscaler>(objects, "HorizontalPodAutoscaler").find((h) => h.spec!.scaleTargetRef.name === name);
  if (hpa) return hpa.spec!.minReplicas ?? 1;
  const scaled = byKind<IScaledObject>(objects, "ScaledObject").find((s) => s.spec!.scaleTargetRef.name === name);
  if (scaled) return scaled.spec!.minReplicaCount ?? 0;
  return named<IDeployment>(objects, "Deployment", name).spec!.replicas ?? 1;
}

describe.each(overlays)("overlay %s", (overlay) => {
  test("renders and every object validates against its schema (Kubernetes OpenAPI, KEDA CRD)", () => {
    expect(rendered[overlay].length).toBeGreaterThan(10);
    expect(rendered[overlay].flatMap(objectSchemaErrors)).toEqual([]);
  });

  test("has one Deployment per service, and every service in the repository is deployed", () => {
    const names = deployments(overlay).map((d) => d.metadata!.name).sort();
    expect(names).toEqual(deployedServices.map((s) => s.name).sort());
    expect(names).toEqual(expect.arrayContaining(servicesInRepository()));
  });

  test("every container, init containers and the migrate Job's too, has cpu and memory requests and limits", () => {
    const missing = workloads(overlay).flatMap(({ name, pod }) =>
      allContainers(pod).flatMap((c) =>
        ["requests", "limits"].flatMap((kind) =>
          ["cpu", "memory"].filter((r) => !(c.resources as Record<string, Record<string, unknown> | undefined>)?.[kind]?.[r]).map((r) => `${name}/${c.name} ${kind}.${r}`),
        ),
      ),
    );
    expect(missing).toEqual([]);
  });

  test.each(deployedServices)("$name probes /healthz for liveness and /readyz for readiness on the port it listens on", ({ name, port, portVariable }) => {
    const d = named<IDeployment>(rendered[overlay], "Deployment", name);
    const [container, ...others] = d.spec!.template.spec!.containers;
    expect(others).toEqual([]);
    const portOf = (p: string | number | undefined) => (typeof p === "number" ? p : container!.ports?.find((cp) => cp.name === p)?.containerPort);
    expect(container!.livenessProbe?.httpGet?.path).toBe("/healthz");
    expect(portOf(container!.livenessProbe?.httpGet?.port)).toBe(port);
    expect(container!.readinessProbe?.httpGet?.path).toBe("/readyz");
    expect(portOf(container!.readinessProbe?.httpGet?.port)).toBe(port);
    expect(container!.env?.find((e) => e.name === portVariable)?.value).toBe(String(port));
  });

  test("every API and worker Deployment is scraped on the port its HEALTH_PORT serves /metrics on", () => {
    const scraped = deployments(overlay).filter((d) => d.metadata!.name !== "dashboard");
    expect(scraped.length).toBeGreaterThan(0);
    for (const d of scraped) {
      const annotations = d.spec!.template.metadata!.annotations ?? {};
      const container = d.spec!.template.spec!.containers[0]!;
      const name = d.metadata!.name!;
      expect(annotations["prometheus.io/scrape"], name).toBe("true");
      expect(annotations["prometheus.io/path"], name).toBe("/metrics");
      const port = annotations["prometheus.io/port"];
      expect(container.env?.find((e) => e.name === "HEALTH_PORT")?.value, name).toBe(port);
      expect(container.ports?.map((p) => String(p.containerPort)), name).toContain(port);
    }
  });

  test("pods, the migrate Job's too, run as a non-root user without privilege escalation", () => {
    expect(jobs(overlay).length).toBeGreaterThan(0);
    for (const { name, pod } of workloads(overlay)) {
      expect(pod.securityContext?.runAsNonRoot, name).toBe(true);
      expect(pod.securityContext?.runAsUser, name).toBeGreaterThan(0);
      for (const c of allContainers(pod)) {
        expect(c.securityContext?.allowPrivilegeEscalation, `${name}/${c.name}`).toBe(false);
        expect(c.securityContext?.runAsUser ?? 1, `${name}/${c.name}`).toBeGreaterThan(0);
      }
    }
  });

  test("every Deployment has a PodDisruptionBudget that selects its pods", () => {
    const budgets = byKind<{ spec: { selector: LabelSelector } }>(rendered[overlay], "PodDisruptionBudget");
    for (const d of deployments(overlay)) {
      expect(budgets.filter((b) => selects(b.spec.selector, podLabels(d))), d.metadata!.name).toHaveLength(1);
    }
  });

  test("one Job, migrate, runs the migrations: the migrate image with the database Secret, bounded retries, cleaned up after", () => {
    const all = jobs(overlay);
    expect(all.map((j) => j.metadata!.name)).toEqual(["migrate"]);
    const job = all[0]!;
    const pod = job.spec!.template.spec!;
    expect(pod.restartPolicy).toBe("OnFailure");
    expect(pod.containers).toHaveLength(1);
    const [migrate] = pod.containers;
    expect(migrate!.image).toMatch(MIGRATE_IMAGE);
    // The image's own command (node packages/db/src/migrate-cli.ts) migrates.
    expect(command(migrate!)).toEqual([]);
    expect(runsMigrations(migrate!)).toBe(true);
    // The owner of the tables, the one role that runs DDL.
    expect(databaseKeys(migrate!)).toEqual(["DATABASE_URL=DATABASE_URL"]);
    expect(job.spec!.backoffLimit).toBeGreaterThan(0);
    expect(job.spec!.backoffLimit).toBeLessThanOrEqual(6);
    expect(job.spec!.ttlSecondsAfterFinished).toBeGreaterThanOrEqual(600);
    expect(job.spec!.activeDeadlineSeconds).toBeGreaterThan(0);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(migrate!.securityContext).toMatchObject({ readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
  });

  test("no Deployment runs the migrations, in an init container or otherwise", () => {
    const migrating = deployments(overlay).flatMap((d) => allContainers(d.spec!.template.spec!).filter(runsMigrations).map((c) => `${d.metadata!.name}/${c.name}`));
    expect(migrating).toEqual([]);
    const migrateImage = deployments(overlay).flatMap((d) => allContainers(d.spec!.template.spec!).filter((c) => MIGRATE_IMAGE.test(c.image ?? "")).map((c) => `${d.metadata!.name}/${c.name}`));
    expect(migrateImage).toEqual([]);
  });

  test("every Deployment that uses the database waits for the migrate Job: its own image checks the schema first", () => {
    const usesDatabase = deployments(overlay).filter((d) => d.spec!.template.spec!.containers.some((c) => databaseKeys(c).length > 0));
    expect(usesDatabase.map((d) => d.metadata!.name).sort()).toEqual(["dashboard", "gateway", "ledger"]);
    for (const d of usesDatabase) {
      const pod = d.spec!.template.spec!;
      const [wait, ...others] = pod.initContainers ?? [];
      const name = d.metadata!.name!;
      expect(others, name).toEqual([]);
      expect(wait?.image, name).toBe(pod.containers[0]!.image);
      expect(command(wait!), name).toEqual(["node", "packages/db/src/migrate-cli.ts", "--check", "--wait", expect.stringMatching(/^\d+$/)]);
      // The check signs in as the service does.
      expect(databaseKeys(wait!), name).toEqual(databaseKeys(pod.containers[0]!));
    }
  });

  test("only the migrate Job gets the owner's DATABASE_URL: every other container its own service's role, and none the whole Secret", () => {
    const readers = workloads(overlay).flatMap(({ name, pod }) => allContainers(pod).flatMap((c) => databaseKeys(c).map((k) => `${name}/${c.name} ${k}`)));
    expect(readers.sort()).toEqual(
      [
        "Job/migrate/migrate DATABASE_URL=DATABASE_URL",
        // The drift watch stores its runs with the gateway's role (drift_runs: read and append).
        "CronJob/drift/drift DATABASE_URL=GATEWAY_DATABASE_URL",
        ...["dashboard", "gateway", "ledger"].flatMap((s) => [`Deployment/${s}/${s}`, `Deployment/${s}/wait-for-schema`].map((c) => `${c} DATABASE_URL=${s.toUpperCase()}_DATABASE_URL`)),
      ].sort(),
    );
  });

  test("only gateway pods accept traffic from anywhere, the console only from the ingress controller; everything else is denied by default", () => {
    const policies = byKind<INetworkPolicy>(rendered[overlay], "NetworkPolicy");
    const isIngress = (p: INetworkPolicy) => (p.spec!.policyTypes ?? ["Ingress"]).includes("Ingress");
    const defaultDeny = policies.filter((p) => isIngress(p) && Object.keys(p.spec!.podSelector ?? {}).length === 0 && (p.spec!.ingress ?? []).length === 0);
    expect(defaultDeny).toHaveLength(1);

    // A rule without `from` is open; so is a peer that is every address, or every namespace
    // (an empty namespaceSelector) without narrowing the pods.
    const unrestricted = (s: LabelSelector | null | undefined) => !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);
    const openToAnywhere = (p: INetworkPolicy) =>
      (p.spec!.ingress ?? []).some(
        (rule) =>
          !rule.from ||
          rule.from.length === 0 ||
          rule.from.some((peer) =>
            peer.ipBlock
              ? peer.ipBlock.cidr === "0.0.0.0/0" || peer.ipBlock.cidr === "::/0"
              : peer.namespaceSelector !== undefined
                ? unrestricted(peer.namespaceSelector as LabelSelector | null) && unrestricted(peer.podSelector as LabelSelector | undefined)
                : peer.podSelector === undefined,
          ),
      );
    const openPolicies = policies.filter((p) => isIngress(p) && openToAnywhere(p));
    const reachable = deployments(overlay)
      .filter((d) => openPolicies.some((p) => selects(p.spec!.podSelector as LabelSelector, podLabels(d))))
      .map((d) => d.metadata!.name)
      .sort();
    expect(reachable).toEqual(["gateway"]);
    // Services exist for exactly the public entry points.
    expect(byKind(rendered[overlay], "Service").map((s) => s.metadata.name).sort()).toEqual(deployedServices.filter((s) => s.public).map((s) => s.name).sort());
    // The console: one rule, from the ingress controller's pods in its namespace, to its port.
    const dashboard = named<IDeployment>(rendered[overlay], "Deployment", "dashboard");
    const consoleRules = policies.filter((p) => isIngress(p) && selects(p.spec!.podSelector as LabelSelector, podLabels(dashboard))).flatMap((p) => p.spec!.ingress ?? []);
    expect(consoleRules.filter((r) => r.ports?.some((port) => port.port === 8090))).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } }, podSelector: { matchLabels: { "app.kubernetes.io/name": "ingress-nginx" } } }],
        ports: [{ protocol: "TCP", port: 8090 }],
      },
    ]);
  });

  test("the gateway's egress reaches the internet but no private, shared, link-local or loopback address; in the cluster only DNS, NATS, Postgres and the collector", () => {
    const gateway = named<IDeployment>(rendered[overlay], "Deployment", "gateway");
    const egress = byKind<INetworkPolicy>(rendered[overlay], "NetworkPolicy").filter((p) => (p.spec!.policyTypes ?? []).includes("Egress") && selects(p.spec!.podSelector as LabelSelector, podLabels(gateway)));
    expect(egress).toHaveLength(1);
    const rules = egress[0]!.spec!.egress ?? [];
    const blocks = rules.flatMap((r) => (r.to ?? []).flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : [])));
    expect(blocks.map((b) => b.cidr).sort()).toEqual(["0.0.0.0/0", "::/0"]);
    const excluded = blocks.flatMap((b) => b.except ?? []);
    expect(excluded).toEqual(expect.arrayContaining(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "127.0.0.0/8", "fc00::/7", "fe80::/10", "::1/128"]));
    // Every other rule names its peers and its ports.
    const inCluster = rules.filter((r) => (r.to ?? []).every((peer) => !peer.ipBlock));
    for (const rule of inCluster) {
      expect(rule.to?.length, JSON.stringify(rule)).toBeGreaterThan(0);
      expect(rule.to!.every((peer) => peer.podSelector || peer.namespaceSelector?.matchLabels), JSON.stringify(rule)).toBe(true);
      expect(rule.ports?.length, JSON.stringify(rule)).toBeGreaterThan(0);
    }
    expect(inCluster.flatMap((r) => (r.ports ?? []).map((p) => `${p.protocol}/${p.port}`)).sort()).toEqual(["TCP/4222", "TCP/4317", "TCP/4318", "TCP/53", "TCP/5432", "UDP/53"]);
  });

  test("every service signs in to NATS as its own user over TLS, its password from Secret adrank-nats, checking the CA of adrank-nats-ca", () => {
    const config = byKind<IConfigMap>(rendered[overlay], "ConfigMap").find((c) => c.metadata!.name!.startsWith("adrank-config"))!;
    for (const d of deployments(overlay)) {
      const name = d.metadata!.name!;
      const pod = d.spec!.template.spec!;
      const container = pod.containers[0]!;
      expect(container.env?.find((e) => e.name === "NATS_USER")?.value, name).toBe(name);
      expect(container.env?.find((e) => e.name === "NATS_PASSWORD")?.valueFrom?.secretKeyRef, name).toEqual({ name: "adrank-nats", key: name });
      const mount = container.volumeMounts?.find((m) => config.data!.NATS_TLS_CA!.startsWith(`${m.mountPath}/`));
      expect(mount?.readOnly, name).toBe(true);
      expect(pod.volumes?.find((v) => v.name === mount!.name)?.secret, name).toEqual({ secretName: "adrank-nats-ca", items: [{ key: "ca.crt", path: config.data!.NATS_TLS_CA!.slice(mount!.mountPath.length + 1) }] });
    }
    // The migrate Job never connects to NATS.
    for (const c of allContainers(jobs(overlay)[0]!.spec!.template.spec!)) expect(c.env?.some((e) => e.name.startsWith("NATS_")) ?? false).toBe(false);
  });

  test("one Ingress sends /api and /docs to the gateway and everything else to the console, over TLS", () => {
    const [ingress, ...more] = rendered[overlay].filter((o) => o.kind === "Ingress") as Array<K8sObject & { spec: { tls?: unknown[]; rules: Array<{ http: { paths: Array<{ path: string; backend: { service: { name: string } } }> } }> } }>;
    expect(more).toEqual([]);
    const routes = Object.fromEntries(ingress!.spec.rules[0]!.http.paths.map((p) => [p.path, p.backend.service.name]));
    expect(routes).toEqual({ "/api": "gateway", "/docs": "gateway", "/": "dashboard" });
    expect(ingress!.spec.tls).toHaveLength(1);
    const services = rendered[overlay].filter((o) => o.kind === "Service").map((o) => o.metadata.name);
    expect(services).toEqual(expect.arrayContaining(["gateway", "dashboard"]));
  });

  test("the HorizontalPodAutoscaler scales the gateway on CPU", () => {
    const hpas = byKind<IHorizontalPodAutoscaler>(rendered[overlay], "HorizontalPodAutoscaler");
    expect(hpas.map((h) => h.spec!.scaleTargetRef)).toEqual([{ apiVersion: "apps/v1", kind: "Deployment", name: "gateway" }]);
    expect(hpas[0]!.spec!.metrics).toEqual([expect.objectContaining({ type: "Resource", resource: expect.objectContaining({ name: "cpu" }) })]);
  });

  test("KEDA scales scorer and panel-voter on the lag of their durable consumers on the JOBS stream", () => {
    const topo = topology("");
    const scaled = byKind<IScaledObject>(rendered[overlay], "ScaledObject");
    expect(scaled.map((s) => s.spec!.scaleTargetRef.name).sort()).toEqual([...lagScaledServices].sort());
    for (const s of scaled) {
      const service = s.spec!.scaleTargetRef.name;
      expect(s.spec!.triggers).toEqual([
        expect.objectContaining({
          type: "nats-jetstream",
          metadata: expect.objectContaining({ stream: topo.streams.jobs.name, consumer: topo.consumer(service), natsServerMonitoringEndpoint: "nats-headless.nats.svc.cluster.local:8222" }),
        }),
      ]);
      // Never to zero: the gateway answers pairwise requests with 503 when no voter consumes.
      expect(s.spec!.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(Number(s.spec!.triggers[0]!.metadata.lagThreshold)).toBeGreaterThan(0);
    }
  });

  test("autoscaled Deployments leave `replicas` to their autoscaler", () => {
    for (const name of ["gateway", ...lagScaledServices]) {
      expect(named<IDeployment>(rendered[overlay], "Deployment", name).spec!.replicas, name).toBeUndefined();
    }
  });

  test("the ConfigMap points at the NATS Helm release, over TLS", () => {
    const config = byKind<IConfigMap>(rendered[overlay], "ConfigMap").find((c) => c.metadata!.name!.startsWith("adrank-config"));
    expect(config?.data?.NATS_URL).toBe("tls://nats.nats.svc.cluster.local:4222");
    expect(config?.data?.NATS_TLS_CA).toMatch(/^\/etc\/adrank\/nats-ca\/ca\.crt$/);
    expect(config?.data?.ADRANK_NAMESPACE).toBe("");
  });
});

describe("configuration and secrets", () => {
  // Production keeps credentials out of the repository; dev generates the provider keys (empty: sim models).
  const external: Record<Overlay, string[]> = {
    dev: ["adrank-database", "adrank-dashboard", "adrank-nats", "adrank-nats-ca", "adrank-drift"],
    prod: ["adrank-database", "adrank-provider-keys", "adrank-dashboard", "adrank-nats", "adrank-nats-ca", "adrank-drift"],
  };

  test.each(overlays)("%s: every ConfigMap and Secret a pod reads is rendered, or is one of the documented external Secrets", (overlay) => {
    const present = new Set(rendered[overlay].filter((o) => o.kind === "ConfigMap" || o.kind === "Secret").map((o) => `${o.kind}/${o.metadata.name}`));
    const referenced = new Set(
      workloads(overlay).flatMap(({ pod }) => [
        ...(pod.volumes ?? []).flatMap((v) => (v.secret?.secretName ? [`Secret/${v.secret.secretName}`] : [])),
        ...allContainers(pod).flatMap((c) =>
          [
            ...(c.envFrom ?? []).map((e) => (e.configMapRef ? `ConfigMap/${e.configMapRef.name}` : `Secret/${e.secretRef!.name}`)),
            ...(c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [`Secret/${e.valueFrom.secretKeyRef.name}`] : [])),
          ],
        ),
      ]),
    );
    const missing = [...referenced].filter((r) => !present.has(r)).sort();
    expect(missing).toEqual(external[overlay].map((s) => `Secret/${s}`).sort());
  });

  test("prod images are pinned to a registry and a tag", () => {
    const images = workloads("prod").flatMap(({ pod }) => allContainers(pod).map((c) => c.image!));
    expect(images).toEqual(expect.arrayContaining([expect.stringMatching(MIGRATE_IMAGE)]));
    for (const image of images) expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]+\/[^:]+:(?!latest$)[\w.-]+$/);
  });
});

describe("prod against dev", () => {
  test("prod keeps at least two replicas of every service and more than dev of every scaled or stateful one", () => {
    for (const { name } of deployedServices) {
      expect(minimumReplicas(rendered.prod, name), name).toBeGreaterThanOrEqual(2);
    }
    for (const name of ["gateway", "ledger", ...lagScaledServices]) {
      expect(minimumReplicas(rendered.prod, name), name).toBeGreaterThan(minimumReplicas(rendered.dev, name));
    }
  });

  test("prod widens the autoscalers' upper bounds", () => {
    const max = (objects: K8sObject[], name: string) =>
      name === "gateway"
        ? named<IHorizontalPodAutoscaler>(objects, "HorizontalPodAutoscaler", name).spec!.maxReplicas
        : named<IScaledObject>(objects, "ScaledObject", name).spec!.maxReplicaCount;
    for (const name of ["gateway", ...lagScaledServices]) expect(max(rendered.prod, name)!, name).toBeGreaterThan(max(rendered.dev, name)!);
  });

  test("prod creates the LEDGER stream, the JOBS stream and the image bucket with 3 replicas", () => {
    const setting = (overlay: Overlay, name: string) => byKind<IConfigMap>(rendered[overlay], "ConfigMap").find((c) => c.metadata!.name!.startsWith("adrank-config"))?.data?.[name];
    expect(setting("prod", "LEDGER_JETSTREAM_REPLICAS")).toBe("3");
    expect(setting("dev", "LEDGER_JETSTREAM_REPLICAS")).toBe("1");
    expect(setting("prod", "JOBS_JETSTREAM_REPLICAS")).toBe("3");
    // Dev leaves it unset: the services' default of 1.
    expect(setting("dev", "JOBS_JETSTREAM_REPLICAS") ?? "1").toBe("1");
  });
});

describe("simulated models", () => {
  const adrankConfig = (overlay: Overlay) => {
    const [config, ...more] = byKind<IConfigMap>(rendered[overlay], "ConfigMap").filter((c) => c.metadata!.name!.startsWith("adrank-config"));
    expect(more).toEqual([]);
    return config!;
  };

  test("prod sets ADRANK_ALLOW_SIM=false; dev does not", () => {
    expect(adrankConfig("prod").data?.ADRANK_ALLOW_SIM).toBe("false");
    expect(adrankConfig("dev").data?.ADRANK_ALLOW_SIM ?? "true").toBe("true");
  });

  test("prod checks its models at start, so a broken model keeps the new pods not ready; dev does not", () => {
    expect(adrankConfig("prod").data?.ADRANK_MODELS_CHECK_AT_START).toBe("true");
    expect(adrankConfig("dev").data?.ADRANK_MODELS_CHECK_AT_START ?? "false").toBe("false");
  });

  test.each(overlays)("%s: scorer, panel-voter and gateway read that ConfigMap, and no container env overrides the setting", (overlay) => {
    const name = adrankConfig(overlay).metadata!.name;
    for (const service of ["scorer", "panel-voter", "gateway"]) {
      const [container] = named<IDeployment>(rendered[overlay], "Deployment", service).spec!.template.spec!.containers;
      expect(container!.envFrom, service).toContainEqual({ configMapRef: { name } });
      expect(container!.env?.find((e) => e.name === "ADRANK_ALLOW_SIM"), service).toBeUndefined();
    }
  });

  test("prod as rendered, still on the base's sim models, is refused by the models configuration; dev loads", () => {
    expect(() => loadConfig(ModelsEnv, adrankConfig("prod").data)).toThrow(/ADRANK_ALLOW_SIM: is false but ADRANK_GENERATORS, ADRANK_EMBEDDER and ADRANK_VOTER use the offline simulated model/);
    expect(loadConfig(ModelsEnv, adrankConfig("dev").data).ADRANK_ALLOW_SIM).toBe(true);
  });
});

describe("account console settings", () => {
  const consoleEnv = (overlay: Overlay) => Object.fromEntries((named<IDeployment>(rendered[overlay], "Deployment", "dashboard").spec!.template.spec!.containers[0]!.env ?? []).map((e) => [e.name, e.value]));

  test("prod grants no credits on sign-up; dev keeps the service's default", () => {
    expect(consoleEnv("prod").DASHBOARD_SIGNUP_CREDITS).toBe("0");
    expect(consoleEnv("dev").DASHBOARD_SIGNUP_CREDITS).toBeUndefined();
  });

  test.each(overlays)("%s: the console trusts one proxy hop (the ingress), as a count, not `true`", (overlay) => {
    expect(consoleEnv(overlay).DASHBOARD_TRUST_PROXY).toBe("1");
  });
});

describe("gateway settings", () => {
  const gatewayEnv = (overlay: Overlay) => Object.fromEntries((named<IDeployment>(rendered[overlay], "Deployment", "gateway").spec!.template.spec!.containers[0]!.env ?? []).map((e) => [e.name, e.value]));

  // Without it every caller behind the ingress shares the ingress's address, and 20 made-up
  // keys from anyone would refuse everyone's requests with 429 for a minute.
  test.each(overlays)("%s: the gateway counts failed authentications per client, trusting one proxy hop", (overlay) => {
    expect(gatewayEnv(overlay).GATEWAY_TRUST_PROXY).toBe("1");
  });
});

describe.each(overlays)("drift watch CronJob (%s)", (overlay) => {
  const drift = () => named<ICronJob>(rendered[overlay], "CronJob", "drift");
  const podTemplate = () => drift().spec!.jobTemplate.spec!.template;
  const container = () => {
    const [only, ...others] = podTemplate().spec!.containers;
    expect(others).toEqual([]);
    return only!;
  };
  const env = (name: string) => container().env?.find((e) => e.name === name);
  const gateway = () => named<IDeployment>(rendered[overlay], "Deployment", "gateway");

  test("is the one CronJob: daily at 06:00 UTC, one run at a time, and a failed run stays failed (no retry)", () => {
    expect(cronJobs(overlay).map((c) => c.metadata!.name)).toEqual(["drift"]);
    const spec = drift().spec!;
    expect(spec.schedule).toBe("0 6 * * *");
    expect(spec.timeZone).toBe("Etc/UTC");
    expect(spec.concurrencyPolicy).toBe("Forbid");
    expect(spec.jobTemplate.spec!.backoffLimit).toBe(0);
    expect(podTemplate().spec!.restartPolicy).toBe("Never");
    expect(spec.failedJobsHistoryLimit).toBeGreaterThan(0);
    expect(spec.jobTemplate.spec!.activeDeadlineSeconds).toBeGreaterThan(0);
    expect(podTemplate().spec!.automountServiceAccountToken).toBe(false);
    expect(container().securityContext).toMatchObject({ readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
  });

  test("runs the drift tool from the gateway's image", () => {
    expect(container().image).toBe(gateway().spec!.template.spec!.containers[0]!.image);
    const argv = command(container());
    expect(argv).toEqual(["node", "services/gateway/src/admin/drift/main.ts"]);
    expect(existsSync(fromRoot(argv[1]!))).toBe(true);
  });

  test("calls the gateway through its Service, with its key from Secret adrank-drift", () => {
    const url = new URL(env("ADRANK_URL")!.value!);
    const service = named<IService>(rendered[overlay], "Service", url.hostname);
    expect(selects(service.spec!.selector as LabelSelector, podLabels(gateway()))).toBe(true);
    expect(service.spec!.ports!.map((p) => p.port)).toContain(Number(url.port));
    expect(env("DRIFT_API_KEY")?.valueFrom?.secretKeyRef).toEqual({ name: "adrank-drift", key: "DRIFT_API_KEY" });
    // Plain http inside the cluster: the SDK sends the key only when told so.
    expect(url.protocol).toBe("http:");
    expect(env("DRIFT_ALLOW_INSECURE_HTTP")?.value).toBe("true");
  });

  test("the network policies let it reach the gateway on 8080, and Postgres", () => {
    const labels = podTemplate().metadata!.labels ?? {};
    expect(labels["app.kubernetes.io/part-of"]).toBe("adrank");
    const policies = byKind<INetworkPolicy>(rendered[overlay], "NetworkPolicy");
    // Egress is open outside the gateway: no policy may restrict this pod's without also
    // allowing the gateway (8080) and Postgres (5432), so none is expected to select it.
    const egress = policies.filter((p) => (p.spec!.policyTypes ?? []).includes("Egress") && selects(p.spec!.podSelector as LabelSelector, labels));
    expect(egress).toEqual([]);
    // The gateway's ingress admits it on 8080: a rule open to every peer, or one naming it.
    const gatewayRules = policies
      .filter((p) => (p.spec!.policyTypes ?? ["Ingress"]).includes("Ingress") && selects(p.spec!.podSelector as LabelSelector, podLabels(gateway())))
      .flatMap((p) => p.spec!.ingress ?? []);
    const admits = gatewayRules.some(
      (rule) =>
        (rule.ports ?? []).some((port) => port.port === 8080) &&
        (!rule.from || rule.from.length === 0 || rule.from.some((peer) => !peer.namespaceSelector && !peer.ipBlock && selects((peer.podSelector ?? {}) as LabelSelector, labels))),
    );
    expect(admits).toBe(true);
  });
});

describe("CloudNativePG example", () => {
  // No schema of the CNPG CRD ships in a package here: the fields adrank relies on are checked.
  const [cluster, ...rest] = parseYamlStream(readFileSync(fromRoot("infra/k8s/examples/cloudnativepg.yaml"), "utf8")) as (K8sObject & {
    spec: {
      instances: number;
      bootstrap: { initdb: { database: string; owner: string } };
      storage: { size: string };
      managed: { roles: Array<{ name: string; login: boolean; inRoles?: string[]; passwordSecret?: { name: string } }> };
    };
  })[];

  test("is one highly available Cluster with the adrank database", () => {
    expect(rest).toEqual([]);
    expect(cluster).toMatchObject({ apiVersion: "postgresql.cnpg.io/v1", kind: "Cluster", spec: { bootstrap: { initdb: { database: "adrank", owner: "adrank" } } } });
    expect(cluster!.spec.instances).toBeGreaterThanOrEqual(3);
    expect(cluster!.spec.storage.size).toMatch(/^\d+(Gi|Ti)$/);
  });

  test("makes each service's group role (NOLOGIN) and a login role in it: the owner may not create roles", () => {
    const roles = cluster!.spec.managed.roles;
    for (const service of ["gateway", "ledger", "dashboard", "admin"]) {
      expect(roles, service).toContainEqual(expect.objectContaining({ name: `adrank_${service}`, login: false }));
      expect(roles, service).toContainEqual(expect.objectContaining({ name: `adrank_${service}_login`, login: true, inRoles: [`adrank_${service}`], passwordSecret: { name: `adrank-pg-${service}` } }));
    }
    expect(roles.filter((r) => r.login).every((r) => r.name !== cluster!.spec.bootstrap.initdb.owner)).toBe(true);
  });
});

describe("NATS TLS and the NATS namespace's network policies", () => {
  const policies = parseYamlStream(readFileSync(fromRoot("infra/helm/nats-network-policies.yaml"), "utf8")) as Array<K8sObject & INetworkPolicy>;
  // The chart's labels of a NATS server pod (release `nats`) and of nats-box.
  const server = { "app.kubernetes.io/name": "nats", "app.kubernetes.io/instance": "nats", "app.kubernetes.io/component": "nats" };
  const rulesFor = (port: number) => policies.filter((p) => selects(p.spec!.podSelector as LabelSelector, server)).flatMap((p) => (p.spec!.ingress ?? []).filter((r) => r.ports?.some((rp) => rp.port === port)));
  const peers = (port: number) => rulesFor(port).flatMap((r) => r.from ?? [{}]);

  test("validate against the Kubernetes schema, with a default deny", () => {
    expect(policies.flatMap((p) => schemaErrors(p))).toEqual([]);
    expect(policies.filter((p) => Object.keys(p.spec!.podSelector ?? {}).length === 0 && (p.spec!.ingress ?? []).length === 0)).toHaveLength(1);
  });

  test("clients reach NATS only from adrank's pods in the overlays' namespaces, and from nats-box", () => {
    const namespaces = overlays.map((o) => (parse(readFileSync(fromRoot(`infra/k8s/overlays/${o}/kustomization.yaml`), "utf8")) as { namespace: string }).namespace).sort();
    expect(peers(4222)).toEqual([
      {
        namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: namespaces }] },
        podSelector: { matchLabels: { "app.kubernetes.io/part-of": "adrank" } },
      },
      { podSelector: { matchLabels: { "app.kubernetes.io/name": "nats", "app.kubernetes.io/component": "nats-box" } } },
    ]);
    // Every adrank pod carries the label the policy selects.
    for (const overlay of overlays) for (const d of deployments(overlay)) expect(podLabels(d)["app.kubernetes.io/part-of"], d.metadata!.name).toBe("adrank");
  });

  test("servers reach each other's cluster port; monitoring serves KEDA and Prometheus only", () => {
    expect(peers(6222)).toEqual([{ podSelector: { matchLabels: { "app.kubernetes.io/name": "nats", "app.kubernetes.io/component": "nats" } } }]);
    expect(peers(8222).map((p) => p.namespaceSelector?.matchLabels?.["kubernetes.io/metadata.name"]).sort()).toEqual(["keda", "monitoring"]);
    expect(peers(8222).every((p) => p.podSelector === undefined && p.ipBlock === undefined)).toBe(true);
  });

  test("the Helm values serve the cert-manager example's certificate, which names the address the services dial", () => {
    const values = parse(readFileSync(fromRoot("infra/helm/nats-values.yaml"), "utf8")) as { config: { nats: { tls: { enabled: boolean; secretName: string } } } };
    expect(values.config.nats.tls).toMatchObject({ enabled: true, secretName: "nats-server-tls" });
    const certificates = parseYamlStream(readFileSync(fromRoot("infra/k8s/examples/nats-tls.yaml"), "utf8")).filter((o) => o.kind === "Certificate") as Array<K8sObject & { spec: { secretName: string; dnsNames?: string[]; isCA?: boolean } }>;
    const serving = certificates.find((c) => c.spec.secretName === values.config.nats.tls.secretName);
    const config = byKind<IConfigMap>(rendered.prod, "ConfigMap").find((c) => c.metadata!.name!.startsWith("adrank-config"))!;
    expect(serving?.spec.dnsNames).toContain(new URL(config.data!.NATS_URL!).hostname);
    expect(certificates.some((c) => c.spec.isCA)).toBe(true);
  });
});

describe("NATS Helm values", () => {
  const values = parse(readFileSync(fromRoot("infra/helm/nats-values.yaml"), "utf8")) as {
    config: {
      cluster: { enabled: boolean; replicas: number };
      jetstream: { enabled: boolean; fileStore: { enabled: boolean; pvc: { enabled: boolean; size: string } }; merge: Record<string, unknown> };
      monitor: { enabled: boolean; port: number };
    };
    container: { merge: { resources: { requests: object; limits: object } } };
  };

  test("run JetStream on three clustered servers with file storage on volumes", () => {
    expect(values.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    expect(values.config.jetstream).toMatchObject({ enabled: true, fileStore: { enabled: true, pvc: { enabled: true } } });
  });

  test("sync every write to disk before acknowledging it", () => {
    expect(values.config.jetstream.merge.sync_interval).toBe("always");
  });

  test("serve monitoring on the port KEDA reads, with resource requests and limits", () => {
    expect(values.config.monitor).toEqual({ enabled: true, port: 8222 });
    expect(Object.keys(values.container.merge.resources.requests).sort()).toEqual(["cpu", "memory"]);
    expect(Object.keys(values.container.merge.resources.limits).sort()).toEqual(["cpu", "memory"]);
  });
});
