/**
 * Below this the asymptotic series is not yet accurate to double precision: its first
 * omitted term, 3617/(122400·z¹³), is under 1e-16 from here on.
 */
export const STIRLING_FROM = 15;

// B₂ₖ / (2k(2k − 1)) for k = 1..6, from the Bernoulli numbers 1/6, −1/30, 1/42, −1/30, 5/66, −691/2730.
const COEFFICIENTS = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360];

/**
 * The correction term of Stirling's series, S(z) = ln Γ(z) − [(z − ½)·ln z − z + ½·ln(2π)],
 * for z ≥ STIRLING_FROM.
 *
 * Formula: S(z) = Σₖ B₂ₖ / (2k(2k − 1)·z^(2k − 1)), k = 1..6.
 */
export function stirlingCorrection(z: number): number {
  const inverse = 1 / z;
  const inverseSquared = inverse * inverse;
  let series = 0;
  let power = inverse;
  for (const coefficient of COEFFICIENTS) {
    series += coefficient * power;
    power *= inverseSquared;
  }
  return series;
}
