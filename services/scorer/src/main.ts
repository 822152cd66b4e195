import { anchorSets, METHOD_VERSION } from "@adrank/ssr";
import { createModelsReadiness, isModelError, modelsFromEnv, runStartupModelCheck } from "@adrank/models";
import { createImageCache, openImageStore, runWorkerService, workerPlan } from "@adrank/messaging";
import { ScoreJob } from "@adrank/bus-contracts";
import { instrumentEmbedder, instrumentGenerator, modelCallInstruments } from "@adrank/telemetry";
import { ScorerEnv } from "./config.ts";
import { createAnchorEmbeddings } from "./anchor-embeddings.ts";
import { createScoreHandler, SCORE_EXHAUSTED_ERROR } from "./score-handler.ts";
import { promptCacheWarmup } from "./evaluate.ts";
import { createPrefixWarmups } from "./warm-first.ts";
import { promptTemplateHash } from "./evaluation-receipt.ts";
import { scorerMethodKey } from "./scorer-method-key.ts";

await runWorkerService({
  name: "scorer",
  env: ScorerEnv,
  // A bad setting (sim models with ADRANK_ALLOW_SIM=false, say) stops the process with its message.
  settings: modelsFromEnv,
  async start({ config, settings: models, logger, metrics, nc, topo }) {
    for (const warning of models.warnings) logger.warn(warning);
    logger.info(
      { generators: models.generators.map((g) => `${g.provider}:${g.model}`), embedder: `${models.embedder.provider}:${models.embedder.model}` },
      "models configured",
    );
    const modelCalls = modelCallInstruments(metrics);
    const evaluations = metrics.counter("adrank_evaluations_total", "Scoring evaluations answered, by layer and outcome.", ["layer", "outcome"]);
    const replacedSamples = metrics.counter("adrank_samples_replaced_total", "Generator samples that failed and were replaced by one fresh call, by error kind.", ["kind"]);
    // A misconfigured model (wrong key, unknown model, refused parameter) is the operator's to fix: the log and /readyz say how.
    const readiness = createModelsReadiness({
      checkRequired: models.config.ADRANK_MODELS_CHECK_AT_START,
      onMisconfigured: (model, fix) => logger.error({ model, fix }, "a model is misconfigured; customers see only that the model configuration failed"),
    });
    const generators = [instrumentGenerator(readiness.watchGenerator(models.generators[0]), modelCalls), instrumentGenerator(readiness.watchGenerator(models.generators[1]), modelCalls)] as const;
    const embedder = instrumentEmbedder(readiness.watchEmbedder(models.embedder), modelCalls);
    const stopModelCheck = models.config.ADRANK_MODELS_CHECK_AT_START ? runStartupModelCheck({ generators: models.generators, embedder: models.embedder }, readiness, logger) : () => {};

    // Rendered and hashed once at start, so the first evaluation does not pay for it.
    const methodKey = scorerMethodKey({ generators: models.generators, embedder: models.embedder, similarityLimit: config.ANCHOR_SIMILARITY_LIMIT });
    logger.info({ method: METHOD_VERSION, promptTemplates: promptTemplateHash(), anchorSimilarityLimit: config.ANCHOR_SIMILARITY_LIMIT, methodKey }, "scoring method");
    const images = createImageCache(await openImageStore(nc, topo, { replicas: config.JOBS_JETSTREAM_REPLICAS }), config.SCORER_IMAGE_CACHE_BYTES);
    const handle = createScoreHandler({
      generators,
      embedder,
      anchors: createAnchorEmbeddings(embedder, anchorSets),
      loadImage: images.get,
      similarityLimit: config.ANCHOR_SIMILARITY_LIMIT,
      warmUp: promptCacheWarmup(models.generators, config.ADRANK_PROMPT_CACHE_WARMUP),
      prefixWarmups: createPrefixWarmups(),
      methodKey,
      onSampleReplaced: (err) => {
        const kind = isModelError(err) ? err.kind : "error";
        replacedSamples.inc({ kind });
        logger.warn({ err }, "a generator sample failed; replacing it with one fresh call");
      },
    });
    return workerPlan({
      job: {
        kind: "score",
        schema: ScoreJob,
        concurrency: config.SCORER_CONCURRENCY,
        ackWaitMs: config.SCORER_ACK_WAIT_MS,
        maxDeliver: config.SCORER_MAX_DELIVER,
        handle,
        exhaustedError: SCORE_EXHAUSTED_ERROR,
        onOutcome: (job, outcome) => evaluations.inc({ layer: job.layer, outcome: outcome.ok ? "ok" : "failed" }),
      },
      backlogHelp: "Jobs waiting on this service's JetStream consumer or handed out and not yet acked (the scaling signal).",
      // The gateway asks which method runs before it reuses a kept evaluation (issue 36).
      presence: () => ({ methodKey }),
      notReadyReason: () => readiness.notReadyReason(),
      stopFirst: [{ name: "stop the model check", run: async () => stopModelCheck() }],
    });
  },
});
