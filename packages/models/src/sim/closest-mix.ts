/**
 * Picks one entry from each of several lists so that the stances of the picks average
 * closest to a target. The lists of an answer repeat from request to request while the
 * target moves, so every mix's average is worked out once, sorted, and each target is then
 * answered by a binary search instead of a walk over all mixes.
 */

/** A sentence option and its stance; null when it states none. */
export interface Candidate {
  text: string;
  stance: number | null;
}

export interface MixTable<C extends Candidate = Candidate> {
  lists: ReadonlyArray<ReadonlyArray<C | null>>;
  /** The distinct averages of all mixes, ascending. */
  means: Float64Array;
  /** For each of `means`, the first mix in list order with that average, as a mixed-radix index. */
  firstMix: Uint32Array;
}

export interface ClosestMix<C extends Candidate = Candidate> {
  mix: Array<C | null>;
  error: number;
}

const meanOf = (sum: number, count: number) => (count ? sum / count : 0);

/**
 * Every mix's average, the sum taken in list order with null entries and sentences that
 * state no stance left out: the very floating-point numbers an exhaustive search compares.
 */
export function mixTable<C extends Candidate>(lists: ReadonlyArray<ReadonlyArray<C | null>>): MixTable<C> {
  const stances = lists.map((list) => list.map((entry) => entry?.stance ?? null));
  // Map keys compare as SameValueZero: 0 and −0, equal in every distance, share one entry.
  const first = new Map<number, number>();
  let index = 0;
  const visit = (depth: number, sum: number, count: number): void => {
    const list = stances[depth];
    if (!list) {
      const mean = meanOf(sum, count);
      // A NaN average is never closer than anything, so it could never be picked.
      if (!Number.isNaN(mean) && !first.has(mean)) first.set(mean, index);
      index++;
      return;
    }
    for (const stance of list) visit(depth + 1, stance === null ? sum : sum + stance, stance === null ? count : count + 1);
  };
  visit(0, 0, 0);
  const means = Float64Array.from(first.keys()).sort();
  return { lists, means, firstMix: Uint32Array.from(means, (m) => first.get(m)!) };
}

function mixAt<C extends Candidate>(lists: MixTable<C>["lists"], index: number): Array<C | null> {
  const mix: Array<C | null> = new Array(lists.length);
  for (let depth = lists.length - 1; depth >= 0; depth--) {
    const list = lists[depth]!;
    // An empty list has no mixes at all; only the unmatched first mix (index 0) passes through it.
    if (list.length === 0) {
      mix[depth] = null;
      continue;
    }
    mix[depth] = list[index % list.length] ?? null;
    index = Math.floor(index / list.length);
  }
  return mix;
}

/**
 * The mix whose average is closest to `target`; on ties, the first such mix in list order
 * (the first list varying slowest). The distance, |mean − target| in floating point, never
 * falls as the mean moves away from the target on either side, so the closest means sit
 * next to the target's place in the sorted averages, and equally close ones run on from there.
 */
export function closestInTable<C extends Candidate>(table: MixTable<C>, target: number): ClosestMix<C> {
  const { means, firstMix } = table;
  let lo = 0;
  let hi = means.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (means[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  const distance = (i: number) => Math.abs(means[i]! - target);
  const above = lo < means.length ? distance(lo) : Infinity;
  const below = lo > 0 ? distance(lo - 1) : Infinity;
  const error = Math.min(above, below);
  // Nothing is closer than Infinity (an empty list, or a NaN target): the first mix stands, unmatched.
  if (!(error < Infinity)) return { mix: mixAt(table.lists, 0), error: Infinity };
  let pick = Infinity;
  for (let i = lo; i < means.length && distance(i) === error; i++) pick = Math.min(pick, firstMix[i]!);
  for (let i = lo - 1; i >= 0 && distance(i) === error; i--) pick = Math.min(pick, firstMix[i]!);
  return { mix: mixAt(table.lists, pick), error };
}
