import { BEYOND_NOISE_PROBABILITY, REPETITIONS_PER_EVALUATION } from "@adrank/contracts";
import { repetitionNoise, scoreOrderProbability, type RepetitionNoise } from "@adrank/uncertainty";
import type { AudienceRankedScores } from "./audience-scores.ts";

// The one statistic behind every "beyond noise" and "within noise" of the audience comparison
// (the contract's header comment states it): repetition means against the repetition noise
// pooled over both audiences of a pair.

/**
 * The repetition noise a pair of audiences is judged by: pooled over every scored asset of
 * both, s² = Σᵢ Σᵣ (x_ir − mᵢ)² / Σᵢ (nᵢ − 1), df = Σᵢ (nᵢ − 1). df 0 means unknown.
 */
export function pairNoise(x: AudienceRankedScores, y: AudienceRankedScores): RepetitionNoise {
  return repetitionNoise([...x.ranked, ...y.ranked].map((asset) => asset.repetitionScores));
}

/**
 * P(the true mean behind `upperMean` exceeds the one behind `lowerMean`), both means of
 * three repetitions: p = T_df((upperMean − lowerMean) / (s·√(2/3))); null when df is 0.
 */
export function orderProbability(upperMean: number, lowerMean: number, noise: RepetitionNoise): number | null {
  return scoreOrderProbability(upperMean, lowerMean, noise, REPETITIONS_PER_EVALUATION);
}

/** True when an order's probability reaches BEYOND_NOISE_PROBABILITY; an unknown one never does. */
export function isBeyondNoise(p: number | null): boolean {
  return p !== null && p >= BEYOND_NOISE_PROBABILITY;
}

/**
 * Two means agree within noise when neither order is beyond it (two-sided). With unknown
 * noise (df 0) nothing can be told apart except by the figures themselves, so only exactly
 * equal means agree.
 */
export function withinNoise(a: number, b: number, noise: RepetitionNoise): boolean {
  if (noise.df === 0) return a === b;
  return !isBeyondNoise(orderProbability(a, b, noise)) && !isBeyondNoise(orderProbability(b, a, noise));
}
