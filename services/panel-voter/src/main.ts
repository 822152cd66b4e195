import { createImageCache, openImageStore, runWorkerService, workerPlan } from "@adrank/messaging";
import { VoteJob } from "@adrank/bus-contracts";
import { instrumentGenerator, modelCallInstruments } from "@adrank/telemetry";
import { createModelsReadiness, modelsFromEnv, runStartupModelCheck } from "@adrank/models";
import { VoterEnv } from "./config.ts";
import { createVoteHandler, VOTE_EXHAUSTED_ERROR } from "./vote-handler.ts";

await runWorkerService({
  name: "panel-voter",
  env: VoterEnv,
  // A bad setting (sim models with ADRANK_ALLOW_SIM=false, say) stops the process with its message.
  settings: modelsFromEnv,
  async start({ config, settings: models, logger, metrics, nc, topo }) {
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

    const images = createImageCache(await openImageStore(nc, topo, { replicas: config.JOBS_JETSTREAM_REPLICAS }), config.VOTER_IMAGE_CACHE_BYTES);
    return workerPlan({
      job: {
        kind: "vote",
        schema: VoteJob,
        concurrency: config.VOTER_CONCURRENCY,
        ackWaitMs: config.VOTER_ACK_WAIT_MS,
        maxDeliver: config.VOTER_MAX_DELIVER,
        handle: createVoteHandler({ voters, loadImage: images.get }),
        exhaustedError: VOTE_EXHAUSTED_ERROR,
        onOutcome: (_job, outcome) => votes.inc({ outcome: !outcome.ok ? "failed" : outcome.choice === null ? "invalid" : "valid" }),
      },
      backlogHelp: "Votes waiting on this service's JetStream consumer or handed out and not yet acked (the scaling signal).",
      // The gateway asks before it accepts a pairwise request: a reply proves a voter runs now.
      presence: () => ({ model, simulated: voters.some((v) => v.provider === "sim") }),
      notReadyReason: () => readiness.notReadyReason(),
      stopFirst: [{ name: "stop the model check", run: async () => stopModelCheck() }],
    });
  },
});
