import { answerPresence, connectToNats, createImageCache, openImageStore, startJobWorker, topology, WORKER_ID } from "@adrank/messaging";
import { VoteJob } from "@adrank/bus-contracts";
import { createMetrics, instrumentGenerator, modelCallInstruments } from "@adrank/telemetry";
import { createModelsReadiness, modelsFromEnv, runStartupModelCheck } from "@adrank/models";
import { configOrExit, createLogger, loadConfig, onShutdown, serveHealth } from "@adrank/runtime";
import { VoterEnv } from "./config.ts";
import { createVoteHandler, VOTE_EXHAUSTED_ERROR } from "./vote-handler.ts";

// A bad setting (sim models with ADRANK_ALLOW_SIM=false, say) stops the process with its message.
const { config, models } = configOrExit(() => ({ config: loadConfig(VoterEnv), models: modelsFromEnv(process.env) }));
const logger = createLogger("panel-voter", config.LOG_LEVEL);
const metrics = createMetrics("panel-voter");
const votes = metrics.counter("adrank_votes_total", "Votes answered: valid, invalid (no clear verdict) or failed.", ["outcome"]);
for (const warning of models.warnings) logger.warn(warning);
const instruments = modelCallInstruments(metrics);
// A misconfigured model (wrong key, unknown model, refused parameter) is the operator's to fix: the log and /readyz say how.
const readiness = createModelsReadiness({
  checkRequired: models.config.ADRANK_MODELS_CHECK_AT_START,
  onMisconfigured: (model, fix) => logger.error({ model, fix }, "a model is misconfigured; customers see only that the model configuration failed"),
});
const voters = models.voters.map((v) => instrumentGenerator(readiness.watchGenerator(v), instruments));
const stopModelCheck = models.config.ADRANK_MODELS_CHECK_AT_START ? runStartupModelCheck({ voters: models.voters }, readiness, logger) : () => {};
// Presence answers with every seat's model: the gateway's 503 check and the pairwise summary read it.
const model = [...new Set(voters.map((v) => `${v.provider}:${v.model}`))].join(", ");
logger.info({ voters: model }, voters.length > 1 ? "mixed voter panel configured" : "voter model configured");

const topo = topology(config.ADRANK_NAMESPACE);
const nc = await connectToNats({ url: config.NATS_URL, name: "panel-voter", credentials: config });
const images = createImageCache(await openImageStore(nc, topo, { replicas: config.JOBS_JETSTREAM_REPLICAS }), config.VOTER_IMAGE_CACHE_BYTES);

const worker = await startJobWorker({
  nc,
  topo,
  kind: "vote",
  service: "panel-voter",
  schema: VoteJob,
  concurrency: config.VOTER_CONCURRENCY,
  ackWaitMs: config.VOTER_ACK_WAIT_MS,
  maxDeliver: config.VOTER_MAX_DELIVER,
  streamReplicas: config.JOBS_JETSTREAM_REPLICAS,
  logger,
  handle: createVoteHandler({ voters, loadImage: images.get }),
  exhaustedError: VOTE_EXHAUSTED_ERROR,
  onOutcome: (_job, outcome) => votes.inc({ outcome: !outcome.ok ? "failed" : outcome.choice === null ? "invalid" : "valid" }),
});
// The gateway asks before it accepts a pairwise request: a reply proves a voter runs now.
const presence = answerPresence(nc, topo.presence("panel-voter"), () => ({ service: "panel-voter", worker: WORKER_ID, model, simulated: voters.some((v) => v.provider === "sim") }));
await nc.flush();

metrics.gaugeOnScrape("adrank_jobs_backlog", "Votes waiting on this service's JetStream consumer or handed out and not yet acked (the scaling signal).", () => worker.backlog());
const health = serveHealth(config.HEALTH_PORT, config.HEALTH_HOST, { notReadyReason: () => (nc.isClosed() ? "NATS connection closed" : readiness.notReadyReason()), routes: { "/metrics": () => metrics.render() } });

onShutdown(logger, [
  { name: "stop the model check", run: async () => stopModelCheck() },
  { name: "stop answering presence", run: async () => presence.unsubscribe() },
  { name: "stop taking votes and finish those in hand", run: () => worker.stop() },
  { name: "drain NATS", run: () => nc.drain() },
  { name: "close health server", run: () => new Promise<void>((r) => (health ? health.close(() => r()) : r())) },
]);
logger.info({ namespace: topo.namespace, concurrency: config.VOTER_CONCURRENCY }, "panel-voter ready");
