/** The standard normal quantile at 0.975: a two-sided 95 % interval spans ±Z_95. */
const Z_95 = 1.959963984540054;

/** A two-sided interval for a share. */
export interface ShareInterval {
  low: number;
  high: number;
}

/**
 * The Wilson 95 % score interval for a share of `successes` out of `trials` (trials > 0).
 *
 * Formula: with p̂ = successes/trials, n = trials, z = 1.96,
 *   centre = (p̂ + z²/(2n)) / (1 + z²/n),
 *   half-width = z/(1 + z²/n) · √(p̂(1 − p̂)/n + z²/(4n²)).
 * Unlike p̂ ± z·√(p̂(1 − p̂)/n) it stays inside [0, 1] and does not collapse at p̂ = 0 or 1.
 *
 * @example
 * wilsonInterval(5, 10); // ≈ { low: 0.237, high: 0.763 }
 */
export function wilsonInterval(successes: number, trials: number): ShareInterval {
  const share = successes / trials;
  const zSquaredOverN = (Z_95 * Z_95) / trials;
  const scale = 1 + zSquaredOverN;
  const centre = (share + zSquaredOverN / 2) / scale;
  const halfWidth = (Z_95 / scale) * Math.sqrt((share * (1 - share)) / trials + zSquaredOverN / (4 * trials));
  return { low: Math.max(0, centre - halfWidth), high: Math.min(1, centre + halfWidth) };
}
