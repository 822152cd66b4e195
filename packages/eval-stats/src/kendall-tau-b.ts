import { pairCounts, type PairCounts } from "./pair-counts.ts";

/**
 * Kendall's tau-b: (concordant - discordant) / sqrt((pairs - x ties) (pairs - y ties)).
 * The tie correction keeps it in [-1, 1] with many tied scores or outcomes (tau-a would not
 * reach 1 there). O(n log n) (Knight), so the bootstrap can afford it on 10,000 points.
 * Null when there are fewer than two pairs or either side has no variance.
 *
 * @example
 * kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]); // -1 / sqrt(4.5) ≈ -0.4714
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  return tauBOfCounts(pairCounts(x, y));
}

/** Tau-b from a tally of pairs. */
export function tauBOfCounts(c: PairCounts): number | null {
  const xUntied = c.pairs - c.xTies;
  const yUntied = c.pairs - c.yTies;
  if (xUntied === 0 || yUntied === 0) return null;
  const concordantMinusDiscordant = c.pairs - c.xTies - c.yTies + c.jointTies - 2 * c.discordant;
  const tau = concordantMinusDiscordant / Math.sqrt(xUntied) / Math.sqrt(yUntied);
  return Math.max(-1, Math.min(1, tau));
}
