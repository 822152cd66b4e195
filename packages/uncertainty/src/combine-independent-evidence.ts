/**
 * Two posterior probabilities of the same event, each from a 1:1 prior and independent
 * evidence, combined into one.
 *
 * Formula: posterior odds multiply, odds = p₁/(1 − p₁) · p₂/(1 − p₂), so
 *   p = p₁p₂ / (p₁p₂ + (1 − p₁)(1 − p₂)).
 * That form also covers certainties: 1 with anything but 0 gives 1, 0 with anything but 1
 * gives 0. A certainty for and a certainty against (1 and 0) contradict each other; the
 * answer is then 0.5, "no idea", rather than NaN.
 *
 * @throws RangeError when a probability is outside [0, 1] or NaN.
 *
 * @example
 * combineIndependentEvidence(0.75, 0.75); // odds 3·3 = 9 → 0.9
 */
export function combineIndependentEvidence(p1: number, p2: number): number {
  if (!(p1 >= 0 && p1 <= 1) || !(p2 >= 0 && p2 <= 1)) throw new RangeError(`combineIndependentEvidence: probabilities must be in [0, 1], got ${p1} and ${p2}`);
  const forEvent = p1 * p2;
  const against = (1 - p1) * (1 - p2);
  if (forEvent + against === 0) return 0.5;
  return forEvent / (forEvent + against);
}
