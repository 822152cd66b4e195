/** Close-pair rules of the spec (rank rule 8 and Limits). */
export const CLOSE_PAIR_GAP = 0.3;
export const MAX_REFINED_PAIRS = 6;

/** An asset that scored: `key` identifies it (its position in the request). */
export interface Contender {
  key: number;
  score: number;
}

export interface ClosePair {
  /** The asset with the higher raw score (the lower key on an exact tie). */
  higher: number;
  lower: number;
  /** Raw score difference, at least 0 and below CLOSE_PAIR_GAP. */
  gap: number;
}

/**
 * Every pair of scored assets whose raw scores differ by less than 0.30 (a gap of exactly
 * 0.30 is not close), closest first, at most `max`. Pairs may share an asset: with three
 * assets within 0.30 of each other all three pairs are candidates. Ties in closeness keep
 * the order of the request (by the keys), so the selection is deterministic.
 *
 * @example
 * selectClosePairs([{ key: 0, score: 3.1 }, { key: 1, score: 3.25 }]); // [{ higher: 1, lower: 0, gap: 0.15 }]
 */
export function selectClosePairs(contenders: readonly Contender[], max = MAX_REFINED_PAIRS): ClosePair[] {
  const pairs: ClosePair[] = [];
  for (let i = 0; i < contenders.length; i++) {
    for (let j = i + 1; j < contenders.length; j++) {
      const x = contenders[i]!;
      const y = contenders[j]!;
      const gap = Math.abs(x.score - y.score);
      if (!(gap < CLOSE_PAIR_GAP) || isAtGap(gap)) continue;
      const xFirst = x.score > y.score || (x.score === y.score && x.key < y.key);
      pairs.push({ higher: xFirst ? x.key : y.key, lower: xFirst ? y.key : x.key, gap });
    }
  }
  pairs.sort((p, q) => p.gap - q.gap || Math.min(p.higher, p.lower) - Math.min(q.higher, q.lower) || Math.max(p.higher, p.lower) - Math.max(q.higher, q.lower));
  return pairs.slice(0, Math.max(0, max));
}

// 3.55 - 3.25 is 0.2999999999999998 in binary floating point: a gap that is 0.30 to within
// rounding is 0.30, not close.
function isAtGap(gap: number): boolean {
  return Math.abs(gap - CLOSE_PAIR_GAP) < 1e-9;
}
