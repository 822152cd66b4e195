import { GENERATOR_SAMPLES_PER_EVALUATION, GENERATORS_PER_REPETITION, REPETITIONS_PER_EVALUATION } from "@adrank/contracts";
import { aggregateEvaluation, type AggregateScore, type RepetitionSamples } from "./aggregate.ts";
import type { GeneratorAnswer } from "./generator-prompt.ts";
import { sampleFromSimilarities, type SampleSimilarities } from "./sample.ts";
import { SsrInputError } from "./ssr-input-error.ts";

/** The aggregate of one evaluation and the words that speak for its score. */
export interface EvaluationResult extends AggregateScore {
  /** The rationale of the sample whose score is closest to the final score. */
  rationale: string;
  /** That same sample's product read. */
  productRead: string;
}

/**
 * One evaluation from the parsed answers of its generator calls, in the order
 * `planEvaluation` lists them, and each answer's cosines to the goal's reference sets. The
 * samples pair up by position: calls 0 and 1 are repetition 0, 2 and 3 repetition 1, 4 and 5
 * repetition 2. The rationale and product read come from the sample closest to the final
 * score (the first of them when several are as close).
 *
 * @example
 * const answers = results.map((r) => parseGeneratorAnswer(r.text));
 * evaluationResult(answers, vectors.map((v) => similaritiesToAnchors(v, anchorSets))).rationale;
 */
export function evaluationResult(answers: readonly GeneratorAnswer[], similarities: readonly SampleSimilarities[]): EvaluationResult {
  if (answers.length !== GENERATOR_SAMPLES_PER_EVALUATION) throw new SsrInputError(`expected ${GENERATOR_SAMPLES_PER_EVALUATION} answers, got ${answers.length}`);
  if (similarities.length !== answers.length) throw new SsrInputError(`expected similarities for each of the ${answers.length} answers, got ${similarities.length}`);
  const samples = similarities.map((perSet) => sampleFromSimilarities(perSet));
  const repetitions = Array.from({ length: REPETITIONS_PER_EVALUATION }, (_, r): RepetitionSamples => {
    const first = r * GENERATORS_PER_REPETITION;
    return [samples[first]!, samples[first + 1]!];
  });
  const aggregate = aggregateEvaluation(repetitions);
  const closest = samples.reduce((best, s, i) => (Math.abs(s.score - aggregate.score) < Math.abs(samples[best]!.score - aggregate.score) ? i : best), 0);
  return { ...aggregate, rationale: answers[closest]!.rationale, productRead: answers[closest]!.productRead };
}
