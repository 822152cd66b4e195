import type { Embedder, Generator } from "@adrank/models";
import type { Evaluation, ScoreJob } from "@adrank/bus-contracts";
import { evaluationResult, parseGeneratorAnswer, planEvaluation, similaritiesToAnchors } from "@adrank/ssr";
import type { AnchorEmbeddings } from "./anchor-embeddings.ts";

export interface EvaluationDeps {
  generators: readonly [Generator, Generator];
  embedder: Embedder;
  anchors: AnchorEmbeddings;
  /** The normalized image bytes, or null when they have expired from the store. */
  loadImage(ref: string): Promise<Uint8Array | null>;
}

/** A failure the requester should read as the asset's error sentence. */
export class EvaluationError extends Error {
  override name = "EvaluationError";
}

/**
 * One scoring evaluation as ssr plans it: its generator calls run at once, their answers are
 * embedded in one batched call and compared with the goal's anchors, and ssr turns that into
 * the aggregate with its confidence signals. This adds the models and the image.
 */
export async function evaluate(job: ScoreJob, deps: EvaluationDeps, signal: AbortSignal): Promise<Evaluation> {
  const plan = planEvaluation({ persona: job.persona, layer: job.layer, copy: job.copy });
  const bytes = plan.showsImage ? await deps.loadImage(job.image.ref) : null;
  if (plan.showsImage && !bytes) throw new EvaluationError("The prepared image expired before it could be scored; please retry the request.");
  const images = bytes ? [{ bytes, mime: job.image.mime }] : [];

  const anchorVectors = deps.anchors.forGoal(job.persona.goal, signal);
  const results = await Promise.all(
    plan.calls.map(({ repetition, generatorIndex, prompt }) =>
      deps.generators[generatorIndex as 0 | 1].generate({
        system: prompt.system,
        user: prompt.user,
        images,
        signal,
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
      }),
    ),
  );
  const answers = results.map((r) => parseGeneratorAnswer(r.text));
  const [vectors, anchorSets] = await Promise.all([deps.embedder.embed(answers.map((a) => a.answer), signal), anchorVectors]);
  if (vectors.length !== answers.length) throw new EvaluationError("The embedding model returned the wrong number of vectors.");

  return {
    ...evaluationResult(
      answers,
      vectors.map((v) => similaritiesToAnchors(v, anchorSets)),
    ),
    generatorModels: deps.generators.map((g) => `${g.provider}:${g.model}`),
    embeddingModel: `${deps.embedder.provider}:${deps.embedder.model}`,
    simulated: results.some((r) => r.simulated),
  };
}
