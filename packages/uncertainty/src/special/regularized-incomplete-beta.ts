import { logBeta } from "./log-beta.ts";

// Lentz's method replaces a zero denominator by this, so a vanishing partial quotient
// cannot divide by zero; it never changes a converged value.
const TINY = 1e-300;
const RELATIVE_TOLERANCE = 1e-15;
// The fraction needs about √(max(a, b)) terms on the side where it is used; this bounds
// the work even for shape parameters in the millions.
const MAX_TERMS = 10_000;

/**
 * The regularized incomplete beta function I_x(a, b) = B(x; a, b) / B(a, b), the CDF of
 * Beta(a, b) at x, for x in [0, 1] and a, b > 0.
 *
 * Formula: I_x(a, b) = xᵃ(1 − x)ᵇ / (a·B(a, b)) · 1 / (1 + d₁/(1 + d₂/(1 + …))) with
 *   d₂ₘ₊₁ = −(a + m)(a + b + m)·x / ((a + 2m)(a + 2m + 1)),
 *   d₂ₘ   =  m(b − m)·x / ((a + 2m − 1)(a + 2m)),
 * evaluated by the modified Lentz method. The fraction converges fast for
 * x < (a + 1)/(a + b + 2); above that the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) is used.
 * Absolute accuracy about 1e-14.
 *
 * Returns NaN when x is outside [0, 1] or a or b is not positive and finite.
 *
 * @example
 * regularizedIncompleteBeta(0.5, 5, 2); // 7/64
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1) || !(a > 0 && a < Infinity) || !(b > 0 && b < Infinity)) return Number.NaN;
  if (x === 0) return 0;
  if (x === 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBetaByFraction(1 - x, b, a);
  return incompleteBetaByFraction(x, a, b);
}

/** I_x(a, b) by the continued fraction, for x on the side where it converges fast. */
function incompleteBetaByFraction(x: number, a: number, b: number): number {
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b);
  const front = Math.exp(logFront) / a;
  // Value of 1 + d₁/(1 + d₂/(1 + …)); its leading term is 1, so Lentz starts from f = C = 1, D = 0.
  let fraction = 1;
  let c = 1;
  let d = 0;
  for (let j = 1; j <= MAX_TERMS; j++) {
    const m = Math.floor(j / 2);
    const numerator =
      j % 2 === 1 ? (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)) : (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + numerator * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + numerator / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = c * d;
    fraction *= step;
    if (Math.abs(step - 1) < RELATIVE_TOLERANCE) break;
  }
  return front / fraction;
}
