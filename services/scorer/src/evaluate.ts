import { isModelError, type Embedder, type Generator } from "@adrank/models";
import { callUsage, mergeModelUsage, type Evaluation, type ModelUsage, type ScoreJob } from "@adrank/bus-contracts";
import { evaluationResult, parseGeneratorAnswer, planEvaluation, similaritiesToAnchors, type PlannedGeneratorCall } from "@adrank/ssr";
import type { AnchorEmbeddings } from "./anchor-embeddings.ts";
import { withOneReplacement } from "./replace-failed-sample.ts";
import { warmFirst, type PrefixWarmups } from "./warm-first.ts";
import { DEFAULT_SIMILARITY_LIMIT, evaluationReceipt } from "./evaluation-receipt.ts";

export interface EvaluationDeps {
  generators: readonly [Generator, Generator];
  embedder: Embedder;
  anchors: AnchorEmbeddings;
  /** The normalized image bytes, or null when they have expired from the store. */
  loadImage(ref: string): Promise<Uint8Array | null>;
  /** Told when a failed sample is replaced by a fresh call (for logs and metrics). */
  onSampleReplaced?(err: unknown): void;
  /** Mean anchor similarity above which a reference set is reported as not separable (ANCHOR_SIMILARITY_LIMIT). */
  similarityLimit?: number;
  /**
   * Per generator: start one of its samples first and the others once it has answered, so they
   * read the image from the provider's prompt cache (see `warmFirst`). Absent: all at once.
   * Set from `Generator.cachesPrompts` and ADRANK_PROMPT_CACHE_WARMUP (`promptCacheWarmup`).
   */
  warmUp?: readonly [boolean, boolean];
  /** The first calls in flight in this process, so both layers of an asset share one per model (one per process). */
  prefixWarmups?: PrefixWarmups;
}

/**
 * Which generators get their samples started one first: those whose provider caches prompts,
 * while ADRANK_PROMPT_CACHE_WARMUP is on. Read from the generators as the adapters built them
 * (wrappers for metrics and readiness need not carry the flag).
 */
export function promptCacheWarmup(generators: readonly [Pick<Generator, "cachesPrompts">, Pick<Generator, "cachesPrompts">], enabled: boolean): [boolean, boolean] {
  return [enabled && generators[0].cachesPrompts === true, enabled && generators[1].cachesPrompts === true];
}

/** A failure the requester should read as the asset's error sentence. */
export class EvaluationError extends Error {
  override name = "EvaluationError";
}

/**
 * One scoring evaluation as ssr plans it: its generator calls run at once (on a model whose
 * provider caches prompts, one first: see `warmFirst`), their answers are embedded in one
 * batched call and compared with the goal's anchors, and ssr turns that into
 * the aggregate with its confidence signals. This adds the models and the image. A sample
 * that fails is replaced once; a second failure fails the evaluation with its reason.
 */
export async function evaluate(job: ScoreJob, deps: EvaluationDeps, signal: AbortSignal): Promise<Evaluation> {
  const plan = planEvaluation({ persona: job.persona, layer: job.layer, copy: job.copy });
  const bytes = plan.showsImage ? await deps.loadImage(job.image.ref) : null;
  if (plan.showsImage && !bytes) throw new EvaluationError("The prepared image expired before it could be scored; please retry the request.");
  const images = bytes ? [{ bytes, mime: job.image.mime }] : [];

  signal.throwIfAborted();
  const anchorVectors = deps.anchors.forGoal(job.persona.goal, signal);
  // Checked before every model call, the replacement of a failed sample too: a cancelled run or a passed deadline starts no new one.
  const sample = ({ repetition, generatorIndex, prompt }: PlannedGeneratorCall) => {
    signal.throwIfAborted();
    return deps.generators[generatorIndex as 0 | 1].generate({
      system: prompt.system,
      user: prompt.user,
      images,
      signal,
      // A rate limit that resets after the job's deadline is not waited for.
      deadlineAt: job.deadline,
      simHints: {
        task: "rate",
        goal: job.persona.goal,
        assetType: job.persona.assetType,
        platform: job.persona.platform,
        copy: plan.copy,
        demographics: job.persona.audience.demographics,
        repetition,
        generatorIndex,
      },
    });
  };
  // A replaced sample's failed call was still made, and its provider may have billed tokens for it.
  const failedCalls: ModelUsage[] = [];
  const onReplace = (err: unknown) => {
    if (isModelError(err)) failedCalls.push(callUsage(`${err.provider}:${err.model}`, err.usage));
    deps.onSampleReplaced?.(err);
  };
  // A group is one model's cache of this prefix (system text and image): two seats on one model
  // share it, and so does the asset's other layer, whose system text is the same.
  const groupOf = ({ generatorIndex, prompt }: PlannedGeneratorCall) => {
    const generator = deps.generators[generatorIndex as 0 | 1];
    return deps.warmUp?.[generatorIndex as 0 | 1] && plan.showsImage ? `${generator.provider}:${generator.model}\u0000${job.image.ref}\u0000${prompt.system}` : null;
  };
  const results = await warmFirst(
    plan.calls.map((call) => ({ call, group: groupOf(call) })),
    ({ call }) => withOneReplacement(() => sample(call), signal, onReplace),
    deps.prefixWarmups,
  );
  const answers = results.map((r) => parseGeneratorAnswer(r.text));
  signal.throwIfAborted();
  const [vectors, referenceSets] = await Promise.all([deps.embedder.embed(answers.map((a) => a.answer), signal), anchorVectors]);
  if (vectors.length !== answers.length) throw new EvaluationError("The embedding model returned the wrong number of vectors.");
  const anchorSets = referenceSets.map((s) => s.vectors);

  return {
    ...evaluationResult(
      answers,
      vectors.map((v) => similaritiesToAnchors(v, anchorSets)),
    ),
    generatorModels: deps.generators.map((g) => `${g.provider}:${g.model}`),
    embeddingModel: `${deps.embedder.provider}:${deps.embedder.model}`,
    // The embedder decides the score as much as the generators: a sim embedder makes it simulated too.
    simulated: results.some((r) => r.simulated) || deps.embedder.provider === "sim",
    // The embedder reports no tokens through its interface; its one call per evaluation is counted.
    usage: mergeModelUsage([results.map((r) => callUsage(`${r.provider}:${r.model}`, r.usage)), failedCalls, [callUsage(`${deps.embedder.provider}:${deps.embedder.model}`, undefined)]]),
    receipt: evaluationReceipt({
      generators: deps.generators,
      samples: results.map((result, i) => ({ generatorIndex: plan.calls[i]!.generatorIndex, result })),
      embedder: deps.embedder,
      dimensions: vectors[0]?.length ?? anchorSets[0]?.[0]?.length ?? 1,
      referenceSets,
      similarityLimit: deps.similarityLimit ?? DEFAULT_SIMILARITY_LIMIT,
    }),
  };
}
