import { STIRLING_FROM, stirlingCorrection } from "./stirling-series.ts";

const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/**
 * The natural logarithm of the gamma function, ln Γ(x), for x > 0.
 *
 * Formula: for x ≥ 15 Stirling's series
 *   ln Γ(x) = (x − ½)·ln x − x + ½·ln(2π) + Σₖ B₂ₖ / (2k(2k − 1)·x^(2k − 1)),  k = 1..6
 * (truncation error below 1e-16 there); for smaller x the recurrence
 *   ln Γ(x) = ln Γ(x + j) − Σ_{i<j} ln(x + i)
 * with j the steps needed to reach 15. Relative accuracy about 1e-15.
 *
 * Returns NaN for x ≤ 0 or NaN, and Infinity for Infinity.
 *
 * @example
 * logGamma(5); // ≈ ln 24
 */
export function logGamma(x: number): number {
  if (Number.isNaN(x) || x <= 0) return Number.NaN;
  if (x === Number.POSITIVE_INFINITY) return x;
  let shift = 0;
  let z = x;
  while (z < STIRLING_FROM) {
    shift += Math.log(z);
    z += 1;
  }
  return (z - 0.5) * Math.log(z) - z + HALF_LOG_TWO_PI + stirlingCorrection(z) - shift;
}
