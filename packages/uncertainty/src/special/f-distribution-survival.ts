import { regularizedIncompleteBeta } from "./regularized-incomplete-beta.ts";

/**
 * The upper tail of Fisher's F distribution with (d1, d2) degrees of freedom, P(F ≥ f).
 *
 * Formula: P(F ≥ f) = I_{d2/(d2 + d1·f)}(d2/2, d1/2), the incomplete beta function;
 * 1 for f ≤ 0 and 0 for f = ∞.
 *
 * Returns NaN for NaN f or d1, d2 not positive and finite.
 *
 * @example
 * fDistributionSurvival(1, 2, 2); // 1/(1 + 1) = 0.5
 */
export function fDistributionSurvival(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0 && d1 < Infinity) || !(d2 > 0 && d2 < Infinity)) return Number.NaN;
  if (f <= 0) return 1;
  if (f === Number.POSITIVE_INFINITY) return 0;
  return regularizedIncompleteBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}
