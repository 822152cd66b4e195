/**
 * A request's credits split over its audiences in proportion to the evaluations each was
 * billed for, as whole credits that add up to exactly `creditsUsed` (largest remainder):
 * audience i first gets ⌊C·uᵢ / U⌋, then the credits left go one each to the largest
 * remainders (C·uᵢ mod U), the earlier audience on a tie. The arithmetic is in integers, so
 * no share drifts by a rounding step. An audience billed nothing gets nothing; should credits
 * be charged with no evaluation billed at all, they are split evenly instead.
 *
 * @example
 * creditShares(10, [3, 2, 2]); // quotas 4.29, 2.86, 2.86 → [4, 3, 3]
 */
export function creditShares(creditsUsed: number, units: readonly number[]): number[] {
  if (!Number.isSafeInteger(creditsUsed) || creditsUsed < 0) throw new RangeError(`creditShares: credits must be a whole number ≥ 0, got ${creditsUsed}`);
  if (units.some((u) => !Number.isSafeInteger(u) || u < 0)) throw new RangeError(`creditShares: units must be whole numbers ≥ 0, got ${units.join(", ")}`);
  if (units.length === 0) {
    if (creditsUsed === 0) return [];
    throw new RangeError("creditShares: credits to share but no audience to share them");
  }
  const total = units.reduce((a, b) => a + b, 0);
  const weights = total > 0 ? units : units.map(() => 1);
  const weightTotal = total > 0 ? total : units.length;
  const shares = weights.map((w) => Math.floor((creditsUsed * w) / weightTotal));
  let left = creditsUsed - shares.reduce((a, b) => a + b, 0);
  const byRemainder = weights.map((w, i) => ({ i, remainder: (creditsUsed * w) % weightTotal })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}
