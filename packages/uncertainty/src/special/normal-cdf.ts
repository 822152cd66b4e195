// Where the two methods hand over: the series is exact to rounding below it, and the
// continued fraction needs few terms above it.
const FRACTION_FROM = 3;
const RELATIVE_TOLERANCE = 1e-16;
const MAX_TERMS = 500;
const INVERSE_SQRT_TWO_PI = 1 / Math.sqrt(2 * Math.PI);

/** The standard normal density φ(z) = e^(−z²/2) / √(2π). */
function normalDensity(z: number): number {
  return INVERSE_SQRT_TWO_PI * Math.exp(-0.5 * z * z);
}

/**
 * The standard normal CDF Φ(z) = P(Z ≤ z).
 *
 * Formula: for |z| < 3 the everywhere-convergent series
 *   Φ(z) = ½ + φ(z)·Σₙ z^(2n+1) / (1·3·5·…·(2n + 1));
 * for |z| ≥ 3 the upper tail from the continued fraction of Mills' ratio
 *   1 − Φ(z) = φ(z) / (z + 1/(z + 2/(z + 3/(z + …)))),   z > 0,
 * with Φ(−z) = 1 − Φ(z). Absolute accuracy about 1e-15, and the far lower tail keeps its
 * relative accuracy.
 *
 * @example
 * normalCdf(1.96); // ≈ 0.9750021
 */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z === Number.POSITIVE_INFINITY) return 1;
  if (z === Number.NEGATIVE_INFINITY) return 0;
  if (z <= -FRACTION_FROM) return upperTail(-z);
  if (z >= FRACTION_FROM) return 1 - upperTail(z);
  let term = z;
  let sum = z;
  for (let n = 1; n <= MAX_TERMS; n++) {
    term *= (z * z) / (2 * n + 1);
    sum += term;
    if (Math.abs(term) <= RELATIVE_TOLERANCE * Math.abs(sum)) break;
  }
  return 0.5 + normalDensity(z) * sum;
}

/** 1 − Φ(z) for z ≥ 3 by the continued fraction of Mills' ratio (modified Lentz). */
function upperTail(z: number): number {
  let fraction = z;
  let c = z;
  let d = 0;
  for (let j = 1; j <= MAX_TERMS; j++) {
    d = 1 / (z + j * d);
    c = z + j / c;
    const step = c * d;
    fraction *= step;
    if (Math.abs(step - 1) < RELATIVE_TOLERANCE) break;
  }
  return normalDensity(z) / fraction;
}
