import type { z } from "zod";
import type { JobEnvelope, Presence } from "@adrank/bus-contracts";
import { configOrExit, createLogger, loadConfig, onShutdown, serveHealth, type Logger } from "@adrank/runtime";
import { createMetrics, type Metrics } from "@adrank/telemetry";
import { connectToNats, type NatsConnection } from "./connect.ts";
import { watchCancellations } from "./cancellations.ts";
import { startJobWorker, WORKER_ID, type JobWorkerOptions } from "./job-worker.ts";
import { answerPresence } from "./presence.ts";
import { topology, type Topology } from "./topology.ts";
import type { WorkerServiceConfig } from "./worker-service-env.ts";

type ShutdownStep = Parameters<typeof onShutdown>[1][number];

/** What a worker service builds its handler from, once connected. */
export interface WorkerServiceContext<C, S> {
  config: C;
  /** What `settings` read (the models, say). */
  settings: S;
  logger: Logger;
  metrics: Metrics;
  nc: NatsConnection;
  topo: Topology;
}

/** The job worker's options less those the bootstrap fills in: connection, topology, consumer name, stream replicas, logger, cancellations. */
export type WorkerServiceJob<J extends JobEnvelope, O extends { ok: boolean }> = Omit<
  JobWorkerOptions<J, O>,
  "nc" | "topo" | "service" | "streamReplicas" | "logger" | "worker" | "now" | "cancellations" | "onCancelled"
>;

/** What is particular to one worker service, as its `start` returns it. */
export interface WorkerServicePlan<J extends JobEnvelope, O extends { ok: boolean }> {
  job: WorkerServiceJob<J, O>;
  /** Help text of its `adrank_jobs_backlog` gauge. */
  backlogHelp: string;
  /**
   * Set, the service answers presence on `topo.presence(name)` with its name, its worker id and
   * these fields: the gateway asks there before it hands the service work.
   */
  presence?: () => Omit<Presence, "service" | "worker">;
  /** Why the service cannot work though NATS is connected (a misconfigured model, say); null when it can. */
  notReadyReason?: () => string | null;
  /** Shutdown steps run before presence stops and the worker finishes its jobs. */
  stopFirst?: ShutdownStep[];
}

/** A plan as written, with the job's and its outcome's types taken from its schema and handler. */
export function workerPlan<J extends JobEnvelope, O extends { ok: boolean }>(plan: WorkerServicePlan<J, O>): WorkerServicePlan<J, O> {
  return plan;
}

export interface WorkerServiceDefinition<C extends WorkerServiceConfig, S, J extends JobEnvelope, O extends { ok: boolean }> {
  /** The logger's, the metrics' and the NATS connection's name, the job consumer's and the presence subject's. */
  name: string;
  /** Its environment: `workerServiceEnv(own variables)`. */
  env: z.ZodType<C>;
  /** Further settings read with the config; a ConfigError here stops the process as a bad variable does. */
  settings?: (env: Record<string, string | undefined>) => S;
  start(context: WorkerServiceContext<C, S>): Promise<WorkerServicePlan<J, O>> | WorkerServicePlan<J, O>;
}

/** The process around the bootstrap; tests pass fakes. */
export interface WorkerServiceIo {
  env: Record<string, string | undefined>;
  connectToNats: typeof connectToNats;
  watchCancellations: typeof watchCancellations;
  startJobWorker: typeof startJobWorker;
  serveHealth: typeof serveHealth;
  onShutdown(logger: Logger, steps: ShutdownStep[]): void;
}

const PROCESS_IO: WorkerServiceIo = { env: process.env, connectToNats, watchCancellations, startJobWorker, serveHealth, onShutdown };

/**
 * Runs a service that works on one kind of job: reads its config (a bad setting stops the
 * process with its sentences), connects to NATS, starts the job worker, which drops the jobs
 * of cancelled runs, answers presence, serves /healthz, /readyz and /metrics with the backlog
 * gauge and the cancelled jobs' counter, and on SIGTERM or SIGINT stops in this order: the
 * service's own first steps, presence, the worker (jobs in hand finish), the cancellations,
 * NATS (drained), the health server. Resolves once the service is ready.
 */
export async function runWorkerService<C extends WorkerServiceConfig, J extends JobEnvelope, O extends { ok: boolean }, S = undefined>(
  definition: WorkerServiceDefinition<C, S, J, O>,
  io: WorkerServiceIo = PROCESS_IO,
): Promise<void> {
  const { name } = definition;
  const { config, settings } = configOrExit(() => ({ config: loadConfig(definition.env, io.env), settings: definition.settings?.(io.env) as S }));
  const logger = createLogger(name, config.LOG_LEVEL);
  const metrics = createMetrics(name);
  const topo = topology(config.ADRANK_NAMESPACE);
  const nc = await io.connectToNats({ url: config.NATS_URL, name, credentials: config });
  const plan = await definition.start({ config, settings, logger, metrics, nc, topo });

  // Subscribed before the worker pulls its first job, so no cancel sent from then on is missed.
  const cancellations = io.watchCancellations(nc, topo);
  const cancelledJobs = metrics.counter("adrank_jobs_cancelled_total", "Jobs dropped because their run was cancelled: still queued (no model call) or running (stopped before its next model call).", ["phase"]);
  const worker = await io.startJobWorker({
    ...plan.job,
    nc,
    topo,
    service: name,
    streamReplicas: config.JOBS_JETSTREAM_REPLICAS,
    logger,
    cancellations,
    onCancelled: (_job, phase) => cancelledJobs.inc({ phase }),
  });
  const { presence: answer } = plan;
  const presence = answer ? answerPresence(nc, topo.presence(name), () => ({ service: name, worker: WORKER_ID, ...answer() })) : null;
  if (presence) await nc.flush();

  metrics.gaugeOnScrape("adrank_jobs_backlog", plan.backlogHelp, () => worker.backlog());
  const notReadyReason = plan.notReadyReason ?? (() => null);
  const health = io.serveHealth(config.HEALTH_PORT, config.HEALTH_HOST, { notReadyReason: () => (nc.isClosed() ? "NATS connection closed" : notReadyReason()), routes: { "/metrics": () => metrics.render() } });

  io.onShutdown(logger, [
    ...(plan.stopFirst ?? []),
    ...(presence ? [{ name: "stop answering presence", run: async () => presence.unsubscribe() }] : []),
    { name: "stop taking jobs and finish those in hand", run: () => worker.stop() },
    { name: "stop watching cancellations", run: async () => cancellations.close() },
    { name: "drain NATS", run: () => nc.drain() },
    { name: "close health server", run: () => new Promise<void>((r) => (health ? health.close(() => r()) : r())) },
  ]);
  logger.info({ namespace: topo.namespace, concurrency: plan.job.concurrency }, `${name} ready`);
}
