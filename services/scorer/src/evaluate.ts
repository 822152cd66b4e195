import type { Embedder, Generator } from "@adrank/models";
import type { Evaluation, ScoreJob } from "@adrank/bus-contracts";
import { aggregateEvaluation, buildGeneratorPrompt, buildPersona, cosineSimilarity, parseGeneratorAnswer, sampleFromSimilarities } from "@adrank/ssr";
import type { AnchorEmbeddings } from "./anchor-embeddings.ts";

export const REPETITIONS = 3;

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
 * One scoring evaluation: 3 repetitions x 2 generators, run at once; their answers embedded
 * in one batched call; each answer's similarity to every anchor set turned into a pmf; then
 * the SSR aggregate with its confidence signals.
 */
export async function evaluate(job: ScoreJob, deps: EvaluationDeps, signal: AbortSignal): Promise<Evaluation> {
  const persona = buildPersona(job.persona);
  const needsImage = job.layer !== "copy-only";
  const bytes = needsImage ? await deps.loadImage(job.image.ref) : null;
  if (needsImage && !bytes) throw new EvaluationError("The prepared image expired before it could be scored; please retry the request.");
  const images = bytes ? [{ bytes, mime: job.image.mime }] : [];
  const copy = job.layer === "image-only" ? null : job.copy;

  const anchorVectors = deps.anchors.forGoal(job.persona.goal, signal);
  const calls = [];
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    for (let generatorIndex = 0; generatorIndex < 2; generatorIndex++) {
      const prompt = buildGeneratorPrompt({ persona, layer: job.layer, copy, goal: job.persona.goal, repetition, generatorIndex });
      const generator = deps.generators[generatorIndex as 0 | 1];
      calls.push(
        generator.generate({
          system: prompt.system,
          user: prompt.user,
          images,
          signal,
          simHints: {
            task: "rate",
            goal: job.persona.goal,
            assetType: job.persona.assetType,
            platform: job.persona.platform,
            copy,
            demographics: job.persona.audience.demographics,
            repetition,
            generatorIndex,
          },
        }),
      );
    }
  }
  const results = await Promise.all(calls);
  const parsed = results.map((r) => parseGeneratorAnswer(r.text));
  const [vectors, anchorSets] = await Promise.all([deps.embedder.embed(parsed.map((p) => p.answer), signal), anchorVectors]);
  if (vectors.length !== parsed.length) throw new EvaluationError("The embedding model returned the wrong number of vectors.");

  const samples = vectors.map((v) => sampleFromSimilarities(anchorSets.map((set) => set.map((anchor) => cosineSimilarity(v, anchor)))));
  const aggregate = aggregateEvaluation([
    [samples[0]!, samples[1]!],
    [samples[2]!, samples[3]!],
    [samples[4]!, samples[5]!],
  ]);
  // The rationale and product read of the sample closest to the final score speak for it.
  const closest = samples.reduce((best, s, i) => (Math.abs(s.score - aggregate.score) < Math.abs(samples[best]!.score - aggregate.score) ? i : best), 0);
  return {
    ...aggregate,
    rationale: parsed[closest]!.rationale,
    productRead: parsed[closest]!.productRead,
    generatorModels: deps.generators.map((g) => `${g.provider}:${g.model}`),
    embeddingModel: `${deps.embedder.provider}:${deps.embedder.model}`,
    simulated: results.some((r) => r.simulated),
  };
}
