import { normalCdf } from "./normal-cdf.ts";
import { regularizedIncompleteBeta } from "./regularized-incomplete-beta.ts";

/**
 * The CDF of Student's t distribution with `df` degrees of freedom, T_df(t) = P(T ≤ t).
 *
 * Formula: the two-sided tail P(|T| ≥ |t|) = I_{df/(df + t²)}(df/2, ½); then
 *   T_df(t) = 1 − ½·P(|T| ≥ |t|) for t > 0, and ½·P(|T| ≥ |t|) for t ≤ 0.
 * Near t = 0 the equivalent P(|T| < |t|) = I_{t²/(df + t²)}(½, df/2) is used instead, so the
 * argument of the incomplete beta is never formed as 1 minus something tiny.
 * T_df(±∞) = 1 or 0; df = ∞ is the standard normal Φ(t).
 *
 * Returns NaN for NaN t or df ≤ 0.
 *
 * @example
 * studentTCdf(1, 2); // ½ + 1/(2√3) ≈ 0.788675
 */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  if (df === Number.POSITIVE_INFINITY) return normalCdf(t);
  const tSquared = t * t;
  const twoSidedTail =
    tSquared < df ? 1 - regularizedIncompleteBeta(tSquared / (df + tSquared), 0.5, df / 2) : regularizedIncompleteBeta(df / (df + tSquared), df / 2, 0.5);
  return t > 0 ? 1 - twoSidedTail / 2 : twoSidedTail / 2;
}
