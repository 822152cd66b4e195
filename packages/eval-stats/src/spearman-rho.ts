import { sampleRankCorrelation } from "simple-statistics";
import { assertPairedValues } from "./paired-values.ts";

/**
 * Spearman's rank correlation of paired values; tied values share the mean of the ranks
 * they span (midranks), so the result does not depend on the order the pairs come in.
 * Null when there are fewer than two pairs or either side has no variance (every value
 * equal): the correlation is undefined there, and a number would mislead.
 *
 * @example
 * spearmanRho([1, 2, 2, 3], [1, 3, 2, 4]); // 3 / sqrt(10) ≈ 0.9487
 */
export function spearmanRho(x: readonly number[], y: readonly number[]): number | null {
  assertPairedValues("spearmanRho", x, y);
  if (x.length < 2) return null;
  // simple-statistics answers NaN (0 / 0) when a side has no rank variance.
  const rho = sampleRankCorrelation(x as number[], y as number[]);
  if (!Number.isFinite(rho)) return null;
  // Perfectly monotone data can land a rounding step off ±1 (0.9999999999999999 for two
  // pairs): such a result is exact agreement, and a reader must see 1, not "almost".
  if (Math.abs(Math.abs(rho) - 1) < 1e-12) return Math.sign(rho);
  return rho;
}
