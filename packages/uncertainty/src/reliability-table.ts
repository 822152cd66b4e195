import { wilsonInterval } from "./wilson-interval.ts";

/** Default bin edges: five bins [0.5, 0.6), [0.6, 0.7), [0.7, 0.8), [0.8, 0.9), [0.9, 1.0]. */
export const RELIABILITY_BINS: readonly number[] = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/** One pair whose order was stated with probability p and later checked. */
export interface ReliabilityPair {
  /** The stated probability that the upper item is truly above the lower one. */
  p: number;
  /** Whether the upper item turned out to be truly above the lower one. */
  orderedRight: boolean;
}

/** One bin of stated probabilities with how often those orders were right. */
export interface ReliabilityBin {
  /** Lower edge, included. */
  p_low: number;
  /** Upper edge, excluded except for the last bin. */
  p_high: number;
  n_pairs: number;
  /** Mean stated probability in the bin; null when empty. */
  mean_p: number | null;
  /** Share of the bin's pairs ordered right; null when empty. */
  observed: number | null;
  /** Wilson 95 % score interval of `observed`; null when empty. */
  ci_low: number | null;
  ci_high: number | null;
}

/**
 * A reliability table of stated order probabilities: for each bin of p, how many pairs,
 * their mean p, and the share that was actually ordered right with its Wilson 95 % interval.
 * A well-calibrated p has observed ≈ mean_p in every bin.
 *
 * Formula: a stated p below 0.5 favours the lower item, so it is folded to 1 − p with
 * orderedRight negated (the same claim, read from the other side); then pair j lands in the
 * bin with edges[i] ≤ p_j < edges[i + 1] (the last bin closed on the right), and
 *   mean_p = Σ p_j / n,  observed = #orderedRight / n,  [ci_low, ci_high] = wilsonInterval.
 * Pairs whose folded p falls outside every bin, or is NaN, are left out. Every bin is
 * returned, empty ones included.
 *
 * @example
 * reliabilityTable([{ p: 0.95, orderedRight: true }, { p: 0.3, orderedRight: false }]);
 * // second pair folds to p 0.7, right → bins [0.7, 0.8) and [0.9, 1.0] hold one right pair each
 */
export function reliabilityTable(pairs: readonly ReliabilityPair[], bins: readonly number[] = RELIABILITY_BINS): ReliabilityBin[] {
  const binCount = Math.max(0, bins.length - 1);
  const sums = Array.from({ length: binCount }, () => ({ n: 0, p: 0, right: 0 }));
  for (const pair of pairs) {
    const folded = pair.p < 0.5;
    const p = folded ? 1 - pair.p : pair.p;
    const right = folded ? !pair.orderedRight : pair.orderedRight;
    const index = binIndex(p, bins);
    if (index === null) continue;
    const sum = sums[index]!;
    sum.n += 1;
    sum.p += p;
    if (right) sum.right += 1;
  }
  return sums.map((sum, i) => {
    const edges = { p_low: bins[i]!, p_high: bins[i + 1]! };
    if (sum.n === 0) return { ...edges, n_pairs: 0, mean_p: null, observed: null, ci_low: null, ci_high: null };
    const interval = wilsonInterval(sum.right, sum.n);
    return { ...edges, n_pairs: sum.n, mean_p: sum.p / sum.n, observed: sum.right / sum.n, ci_low: interval.low, ci_high: interval.high };
  });
}

/** The bin holding p: edges[i] ≤ p < edges[i + 1], the last bin closed; null outside. */
function binIndex(p: number, edges: readonly number[]): number | null {
  const last = edges.length - 2;
  for (let i = 0; i <= last; i++) {
    const low = edges[i]!;
    const high = edges[i + 1]!;
    if (p >= low && (p < high || (i === last && p === high))) return i;
  }
  return null;
}
