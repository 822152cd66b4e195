import { assertPairedValues } from "./paired-values.ts";

// Kendall's tau-b and pairwise agreement are two readings of the same tally of pairs, so both
// come from one count, in O(n log n) after Knight (1966): walk the points in (x, y) order; a
// point's discordant pairs are then the points already seen with a greater y (their x is
// smaller, or equal with a smaller y), counted with a Fenwick tree over the ranks of y.
// Points carry weights (how often each was drawn), so the bootstrap tallies a resample from
// fixed, once-sorted tables without re-sorting anything.

/** How the pairs of n paired values split. Ties in x include the joint ties (and so do ties in y). */
export interface PairCounts {
  pairs: number;
  xTies: number;
  yTies: number;
  /** Pairs tied in x and in y. */
  jointTies: number;
  /** Pairs ordered one way by x and the other by y. */
  discordant: number;
}

/** Pairs ordered the same way by x and by y. */
export const concordantOf = (c: PairCounts): number => c.pairs - c.xTies - c.yTies + c.jointTies - c.discordant;

/**
 * Points sorted for tallying, in segments tallied apart (e.g. one per ranking): inside every
 * segment [from, to), `order` lists its points by (x, y) and `yRank` gives each point the
 * dense rank (0, 1, 2, ...) of its y among the segment's points.
 */
export interface PairTable {
  order: Int32Array;
  x: Float64Array;
  yRank: Int32Array;
}

/** Tallies the pairs of (x[i], y[i]). */
export function pairCounts(x: readonly number[], y: readonly number[]): PairCounts {
  assertPairedValues("pairCounts", x, y);
  const n = x.length;
  const indices = Array.from({ length: n }, (_, i) => i);
  const order = Int32Array.from(indices.sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]!));
  const yRank = new Int32Array(n);
  const byY = Array.from({ length: n }, (_, i) => i).sort((a, b) => y[a]! - y[b]!);
  for (let k = 1; k < n; k++) yRank[byY[k]!] = yRank[byY[k - 1]!]! + (y[byY[k]!] === y[byY[k - 1]!] ? 0 : 1);
  return weightedPairCounts({ order, x: Float64Array.from(x), yRank }, new Int32Array(n).fill(1), 0, n, pairBuffers(n));
}

export interface PairBuffers {
  tree: Int32Array;
  yWeight: Int32Array;
}

/** Zeroed work space for tallies over up to n points; weightedPairCounts leaves it zeroed. */
export const pairBuffers = (n: number): PairBuffers => ({ tree: new Int32Array(n), yWeight: new Int32Array(n) });

/** The tally of the segment [from, to) of `table`, point i counted weight[i] times (0: left out). */
export function weightedPairCounts(table: PairTable, weight: Int32Array, from: number, to: number, buffers: PairBuffers): PairCounts {
  const { order, x, yRank } = table;
  const { tree, yWeight } = buffers;
  const size = to - from;
  const base = from - 1;
  let total = 0;
  let xTies = 0;
  let jointTies = 0;
  let discordant = 0;
  let xRun = 0;
  let jointRun = 0;
  let previous = -1;
  for (let j = from; j < to; j++) {
    const i = order[j]!;
    const w = weight[i]!;
    if (w === 0) continue;
    const rank = yRank[i]!;
    // Copies of one point tie with each other in x, in y and jointly.
    const selfPairs = (w * (w - 1)) / 2;
    if (previous >= 0 && x[i] === x[previous]) {
      xTies += xRun * w + selfPairs;
      xRun += w;
      if (rank === yRank[previous]) {
        jointTies += jointRun * w + selfPairs;
        jointRun += w;
      } else {
        jointTies += selfPairs;
        jointRun = w;
      }
    } else {
      xTies += selfPairs;
      jointTies += selfPairs;
      xRun = w;
      jointRun = w;
    }
    // Seen points with a y rank above this one: total seen minus those at or below it. The
    // tree is 1-based over the segment: node k lives at tree[base + k].
    let atOrBelow = 0;
    for (let k = rank + 1; k > 0; k &= k - 1) atOrBelow += tree[base + k]!;
    discordant += w * (total - atOrBelow);
    for (let k = rank + 1; k <= size; k += k & -k) tree[base + k]! += w;
    yWeight[from + rank]! += w;
    total += w;
    previous = i;
  }
  tree.fill(0, from, to);
  return { pairs: (total * (total - 1)) / 2, xTies, yTies: takeTies(yWeight, from, to), jointTies, discordant };
}

/** Pairs tied within each weight total of [from, to), zeroing the totals for the next tally. */
function takeTies(totals: Int32Array, from: number, to: number): number {
  let ties = 0;
  for (let k = from; k < to; k++) {
    const w = totals[k]!;
    ties += (w * (w - 1)) / 2;
    totals[k] = 0;
  }
  return ties;
}
