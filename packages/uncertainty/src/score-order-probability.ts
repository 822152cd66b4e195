import type { RepetitionNoise } from "./repetition-noise.ts";
import { studentTCdf } from "./special/student-t-cdf.ts";

/** Repetitions behind each mean when the caller does not say: the scorer's default. */
export const DEFAULT_REPETITIONS = 3;

/**
 * The probability that the upper asset's true mean score is above the lower one's.
 *
 * Model: each repetition is the asset's true mean plus independent normal noise with one
 * standard deviation σ shared by the batch, estimated by `noise` (sd with df degrees of
 * freedom). Each mean averages `n` repetitions, so their difference has standard error
 * sd·√(2/n), and with flat priors the true difference follows a Student t with df degrees
 * of freedom about the observed one:
 *   p = T_df((upperMean − lowerMean) / (sd·√(2/n))).
 *
 * Returns null when df is 0 (nothing to measure the noise with). When df > 0 and sd is 0
 * (noise measured as none) the order is certain: 1, 0, or 0.5 for equal means.
 *
 * @throws RangeError when a mean is not finite, n is not positive, or the noise is invalid.
 *
 * @example
 * scoreOrderProbability(7, 6, { sd: 1, df: 8 }); // T₈(1/√(2/3)) ≈ 0.87
 */
export function scoreOrderProbability(upperMean: number, lowerMean: number, noise: RepetitionNoise, n: number = DEFAULT_REPETITIONS): number | null {
  if (!Number.isFinite(upperMean) || !Number.isFinite(lowerMean)) throw new RangeError("scoreOrderProbability: means must be finite numbers");
  if (!(n > 0 && n < Infinity)) throw new RangeError(`scoreOrderProbability: repetitions must be positive, got ${n}`);
  if (!(noise.df >= 0) || !(noise.sd >= 0) || noise.sd === Infinity) throw new RangeError("scoreOrderProbability: noise needs sd ≥ 0 and df ≥ 0");
  if (noise.df === 0) return null;
  const difference = upperMean - lowerMean;
  if (noise.sd === 0) return difference > 0 ? 1 : difference < 0 ? 0 : 0.5;
  return studentTCdf(difference / (noise.sd * Math.sqrt(2 / n)), noise.df);
}
