import { betaCdf } from "./beta-cdf.ts";

// Bisection halves [0, 1] until it is this narrow: 2⁻⁴⁰ ≈ 1e-12, inside the promised 1e-10.
const WIDTH = 1e-12;
const MAX_STEPS = 200;

/**
 * The quantile of Beta(a, b): the x in [0, 1] with P(X ≤ x) = p, for p in [0, 1], a, b > 0.
 *
 * Formula: the inverse of betaCdf, found by bisection on [0, 1] (the CDF is continuous
 * and increasing there) to within 1e-12; 0 for p = 0 and 1 for p = 1.
 *
 * Returns NaN for p outside [0, 1] or a, b not positive and finite.
 *
 * @example
 * betaQuantile(0.5, 1, 1); // 0.5
 */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(p >= 0 && p <= 1) || !(a > 0 && a < Infinity) || !(b > 0 && b < Infinity)) return Number.NaN;
  if (p === 0) return 0;
  if (p === 1) return 1;
  let low = 0;
  let high = 1;
  for (let step = 0; step < MAX_STEPS && high - low > WIDTH; step++) {
    const middle = (low + high) / 2;
    if (betaCdf(middle, a, b) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
