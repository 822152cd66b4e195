import { GENERATORS_PER_REPETITION, REPETITIONS_PER_EVALUATION } from "@adrank/contracts";
import { confidenceLabel, type ConfidenceLabel } from "./confidence.ts";
import { mean, meanRow } from "./mean.ts";
import { LEVELS, type PmfOptions } from "./pmf.ts";
import { sampleFromSimilarities, type RatedSample, type SampleSimilarities } from "./sample.ts";
import { SsrInputError } from "./ssr-input-error.ts";

/** The two generator samples of one repetition, generator 0 first. */
export type RepetitionSamples = readonly [RatedSample, RatedSample];

/** messaging's `Evaluation` without the text and model fields, which the scorer adds. */
export interface AggregateScore {
  /** Mean of the repetition scores, clamped to 1..5. */
  score: number;
  /** Mean pmf of the 6 samples. */
  probabilities: number[];
  /** Mean cosine per level over the 6 samples (and their reference sets). */
  similarities: number[];
  repetitionScores: number[];
  repetitionScoreRange: number;
  /** Shannon entropy of `probabilities` / ln 5, 0..1. */
  entropy: number;
  /** Largest minus second largest probability. */
  topMargin: number;
  /** Population standard deviation of the repetition scores. */
  sampleStdDev: number;
  confidence: ConfidenceLabel;
}

/**
 * One evaluation from 3 repetitions of 2 generator samples each. A repetition's score is
 * the mean of its two samples' scores, the evaluation's score the mean of the three.
 *
 * @example
 * const s = sampleFromSimilarities(cosinesPerSet);
 * aggregateEvaluation([[s, s], [s, s], [s, s]]).confidence; // "high" when s is decided
 */
export function aggregateEvaluation(repetitions: ReadonlyArray<RepetitionSamples>): AggregateScore {
  if (repetitions.length !== REPETITIONS_PER_EVALUATION) throw new SsrInputError(`expected ${REPETITIONS_PER_EVALUATION} repetitions, got ${repetitions.length}`);
  for (const repetition of repetitions) {
    if (repetition.length !== GENERATORS_PER_REPETITION) throw new SsrInputError(`expected ${GENERATORS_PER_REPETITION} samples per repetition, got ${repetition.length}`);
    for (const sample of repetition) assertRatedSample(sample);
  }
  const samples = repetitions.flat();
  const repetitionScores = repetitions.map(([a, b]) => (a.score + b.score) / 2);
  const probabilities = meanRow(
    samples.map((s) => s.pmf),
    LEVELS,
  );
  const centre = mean(repetitionScores);
  const sampleStdDev = populationStdDev(repetitionScores);
  const entropy = normalizedEntropy(probabilities);
  const topMargin = topMarginOf(probabilities);
  return {
    score: clamp(centre, 1, LEVELS),
    probabilities,
    similarities: meanRow(
      samples.map((s) => s.similarities),
      LEVELS,
    ),
    repetitionScores,
    repetitionScoreRange: Math.max(...repetitionScores) - Math.min(...repetitionScores),
    entropy,
    topMargin,
    sampleStdDev,
    confidence: confidenceLabel({ sampleStdDev, topMargin, entropy }),
  };
}

/** The same, straight from each sample's cosines per reference set. */
export function aggregateFromSimilarities(repetitions: ReadonlyArray<readonly [SampleSimilarities, SampleSimilarities]>, options?: PmfOptions): AggregateScore {
  return aggregateEvaluation(repetitions.map(([a, b]) => [sampleFromSimilarities(a, options), sampleFromSimilarities(b, options)] as const));
}

/** Shannon entropy divided by ln 5: 0 for a certain answer, 1 for a uniform one. */
export function normalizedEntropy(pmf: readonly number[]): number {
  const h = -pmf.reduce((sum, p) => (p > 0 ? sum + p * Math.log(p) : sum), 0);
  return clamp(h / Math.log(LEVELS), 0, 1);
}

export function topMarginOf(pmf: readonly number[]): number {
  const [first = 0, second = 0] = [...pmf].sort((a, b) => b - a);
  return first - second;
}

/**
 * Population standard deviation from pairwise differences, Σ_{i<j} (x_i − x_j)² / n²,
 * which equals the mean squared deviation but is exactly 0 for equal values, where the
 * rounded mean would leave a residue like 4e-16.
 */
export function populationStdDev(values: readonly number[]): number {
  let sumOfSquares = 0;
  for (let i = 0; i < values.length; i++) for (let j = i + 1; j < values.length; j++) sumOfSquares += (values[i]! - values[j]!) ** 2;
  return Math.sqrt(sumOfSquares) / values.length;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function assertRatedSample(sample: RatedSample): void {
  if (sample.pmf.length !== LEVELS || sample.similarities.length !== LEVELS) throw new SsrInputError(`a sample needs ${LEVELS} probabilities and ${LEVELS} similarities`);
  if (![sample.score, ...sample.pmf, ...sample.similarities].every(Number.isFinite)) throw new SsrInputError("a sample holds a non-finite number");
}
