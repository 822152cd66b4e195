import { regularizedIncompleteBeta } from "./regularized-incomplete-beta.ts";

/**
 * The CDF of the Beta(a, b) distribution, P(X ≤ x), for a, b > 0 and any real x.
 *
 * Formula: 0 for x ≤ 0, 1 for x ≥ 1, and the regularized incomplete beta I_x(a, b) between.
 *
 * Returns NaN for NaN x or a, b not positive and finite.
 *
 * @example
 * betaCdf(0.5, 5, 2); // 7/64
 */
export function betaCdf(x: number, a: number, b: number): number {
  if (Number.isNaN(x) || !(a > 0 && a < Infinity) || !(b > 0 && b < Infinity)) return Number.NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return regularizedIncompleteBeta(x, a, b);
}
