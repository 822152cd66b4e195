import { logGamma } from "./log-gamma.ts";
import { STIRLING_FROM, stirlingCorrection } from "./stirling-series.ts";

const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/**
 * The natural logarithm of the beta function, ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b),
 * for a, b > 0.
 *
 * Summing the three logGamma values directly loses everything when an argument is large
 * (ln Γ(10¹²) ≈ 2.6·10¹³, so its last bit is worth 1e-3), so with S Stirling's correction:
 * - both a, b ≥ 15: ln B = ½·ln(2π) − (a − ½)·ln(1 + b/a) − b·ln(1 + a/b) − ½·ln b
 *   + S(a) + S(b) − S(a + b);
 * - only the larger, b, ≥ 15: ln B = ln Γ(a) − (b − ½)·ln(1 + a/b) − a·ln(a + b) + a
 *   + S(b) − S(a + b);
 * - otherwise the plain sum, whose terms are all small.
 */
export function logBeta(a: number, b: number): number {
  const small = Math.min(a, b);
  const large = Math.max(a, b);
  const sum = small + large;
  if (small >= STIRLING_FROM) {
    return (
      HALF_LOG_TWO_PI -
      (small - 0.5) * Math.log1p(large / small) -
      large * Math.log1p(small / large) -
      0.5 * Math.log(large) +
      stirlingCorrection(small) +
      stirlingCorrection(large) -
      stirlingCorrection(sum)
    );
  }
  if (large >= STIRLING_FROM) {
    return logGamma(small) - (large - 0.5) * Math.log1p(small / large) - small * Math.log(sum) + small + stirlingCorrection(large) - stirlingCorrection(sum);
  }
  return logGamma(a) + logGamma(b) - logGamma(sum);
}
