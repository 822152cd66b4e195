import { jetstream } from "@nats-io/jetstream";
import { answerPresence, connectToNats, startJobWorker, topology, WORKER_ID } from "@adrank/messaging";
import { RefineJob } from "@adrank/bus-contracts";
import { createMetrics } from "@adrank/telemetry";
import { configOrExit, createLogger, loadConfig, onShutdown, serveHealth } from "@adrank/runtime";
import { RefinementEnv } from "./config.ts";
import { createRefineHandler, REFINE_EXHAUSTED_ERROR } from "./refine-handler.ts";

const config = configOrExit(() => loadConfig(RefinementEnv));
const logger = createLogger("refinement", config.LOG_LEVEL);
const metrics = createMetrics("refinement");
const panels = metrics.counter("adrank_panels_total", "Panels run, by where they came from and their status.", ["source", "status"]);
const topo = topology(config.ADRANK_NAMESPACE);
const nc = await connectToNats({ url: config.NATS_URL, name: "refinement", credentials: config });

const worker = await startJobWorker({
  nc,
  topo,
  kind: "refine",
  service: "refinement",
  schema: RefineJob,
  concurrency: config.REFINEMENT_CONCURRENCY,
  ackWaitMs: config.REFINEMENT_ACK_WAIT_MS,
  maxDeliver: config.REFINEMENT_MAX_DELIVER,
  streamReplicas: config.JOBS_JETSTREAM_REPLICAS,
  logger,
  handle: createRefineHandler({ nc, js: jetstream(nc), topo, log: logger }),
  exhaustedError: REFINE_EXHAUSTED_ERROR,
  onOutcome: (_job, outcome) => {
    if (outcome.ok) for (const result of outcome.report.results) panels.inc({ source: "refinement", status: String(result.status) });
  },
});
// The gateway asks before it hands over a refinement, so a missing service costs no wait.
const presence = answerPresence(nc, topo.presence("refinement"), () => ({ service: "refinement", worker: WORKER_ID }));
await nc.flush();

metrics.gaugeOnScrape("adrank_jobs_backlog", "Refinements waiting on this service's JetStream consumer or handed out and not yet acked.", () => worker.backlog());
const health = serveHealth(config.HEALTH_PORT, config.HEALTH_HOST, { notReadyReason: () => (nc.isClosed() ? "NATS connection closed" : null), routes: { "/metrics": () => metrics.render() } });

onShutdown(logger, [
  { name: "stop answering presence", run: async () => presence.unsubscribe() },
  { name: "stop taking jobs and finish those in hand", run: () => worker.stop() },
  { name: "drain NATS", run: () => nc.drain() },
  { name: "close health server", run: () => new Promise<void>((r) => (health ? health.close(() => r()) : r())) },
]);
logger.info({ namespace: topo.namespace, concurrency: config.REFINEMENT_CONCURRENCY }, "refinement ready");
