import type { ScoredOutcome } from "./figures.ts";
import { tauBOfCounts } from "./kendall-tau-b.ts";
import { pairBuffers, weightedPairCounts, type PairTable } from "./pair-counts.ts";
import { agreedPairsOf, countedPairsOf } from "./pairwise-agreement.ts";

// The bootstrap computes every figure a thousand times on resamples of the same points, so it
// must not re-sort them each time (re-sorting made 10,000 outcomes take a minute). A resample
// only changes how often each point is drawn. So the points are sorted once, every way a
// figure needs, and a resample is read as a count per point walked in those fixed orders:
// midranks come out in O(n), Kendall's tally in O(n log n) without a sort. All four figures
// are computed together from one count, into buffers allocated once.
//
// Pairwise agreement only compares pairs inside a stratum, and a ranking holds at most 20
// assets: the pairs of small strata are listed once with how far each agrees, and a
// resample's agreement is one pass over that list weighted by draws. Larger strata (an eval
// group can be one) are tallied like Kendall's tau, which keeps memory linear.

/** Strata up to this size have their pairs listed (at most 32 * 31 / 2 = 496 pairs each). */
const LISTED_STRATUM_MAX = 32;

/** Spearman rho, Kendall tau-b, pairwise agreement (final scores), pairwise agreement (raw scores). */
export type FourFigures = [number | null, number | null, number | null, number | null];

export interface ResampledFigures {
  /** Each stratum as the indices of its points: the items to resample. */
  strata: number[][];
  /** The four figures of a resample of `strata`. Reuses its buffers: call one at a time. */
  figures: (sample: readonly (readonly number[])[]) => FourFigures;
}

/**
 * The four figures as a statistic of index resamples of `strata`: on a sample holding every
 * index once, each equals its public counterpart (spearmanRho, kendallTauB, pairwiseAgreement)
 * on the points.
 */
export function resampledFigures(strata: readonly (readonly ScoredOutcome[])[]): ResampledFigures {
  const points = strata.flat();
  const n = points.length;
  const score = Float64Array.from(points, (p) => p.score);
  const raw = Float64Array.from(points, (p) => p.rawScore);
  const outcome = Float64Array.from(points, (p) => p.outcome);
  let offset = 0;
  const indexStrata = strata.map((s) => Array.from(s, () => offset++));
  const whole = [Array.from({ length: n }, (_, i) => i)];

  const scoreRuns = tieRuns(sortedSegments(whole, score), score);
  const outcomeRuns = tieRuns(sortedSegments(whole, outcome), outcome);
  const pooledTable = pairTable(whole, score, outcome);
  const small = indexStrata.filter((s) => s.length <= LISTED_STRATUM_MAX);
  const listed = listedPairs(small, score, raw, outcome);
  const large = segmentsOver(indexStrata, LISTED_STRATUM_MAX);
  const largeTable = pairTable(indexStrata, score, outcome);
  const largeRawTable = pairTable(indexStrata, raw, outcome);

  const drawn = new Int32Array(n);
  const rankX = new Float64Array(n);
  const rankY = new Float64Array(n);
  const buffers = pairBuffers(n);

  return {
    strata: indexStrata,
    figures: (sample) => {
      drawn.fill(0);
      for (const s of sample) for (const i of s) drawn[i]!++;

      midranksInto(scoreRuns, drawn, rankX);
      midranksInto(outcomeRuns, drawn, rankY);
      const rho = drawnCorrelation(rankX, rankY, drawn);

      const tau = tauBOfCounts(weightedPairCounts(pooledTable, drawn, 0, n, buffers));

      let pairs = 0;
      let agreed = 0;
      let agreedRaw = 0;
      for (let p = 0; p < listed.first.length; p++) {
        const w = drawn[listed.first[p]!]! * drawn[listed.second[p]!]!;
        pairs += w;
        agreed += w * listed.agreement[p]!;
        agreedRaw += w * listed.agreementRaw[p]!;
      }
      for (const { from, to } of large) {
        const final = weightedPairCounts(largeTable, drawn, from, to, buffers);
        const before = weightedPairCounts(largeRawTable, drawn, from, to, buffers);
        pairs += countedPairsOf(final);
        agreed += agreedPairsOf(final);
        agreedRaw += agreedPairsOf(before);
      }
      return [rho, tau, pairs === 0 ? null : agreed / pairs, pairs === 0 ? null : agreedRaw / pairs];
    },
  };
}

/** [from, to) of every stratum larger than `size`, in the flat index space. */
function segmentsOver(strata: readonly (readonly number[])[], size: number): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  let from = 0;
  for (const s of strata) {
    if (s.length > size) out.push({ from, to: from + s.length });
    from += s.length;
  }
  return out;
}

/**
 * The pairs of each stratum whose outcomes differ (the pairs agreement counts), with how far
 * each score orders them like the outcome: 1, 0.5 for a tie in score, or 0.
 */
function listedPairs(strata: readonly (readonly number[])[], score: Float64Array, raw: Float64Array, y: Float64Array) {
  const first: number[] = [];
  const second: number[] = [];
  const agreement: number[] = [];
  const agreementRaw: number[] = [];
  const agrees = (x: Float64Array, i: number, j: number) => (x[i] === x[j] ? 0.5 : x[i]! < x[j]! === y[i]! < y[j]! ? 1 : 0);
  for (const s of strata) {
    for (let a = 0; a < s.length; a++) {
      for (let b = a + 1; b < s.length; b++) {
        const i = s[a]!;
        const j = s[b]!;
        if (y[i] === y[j]) continue;
        first.push(i);
        second.push(j);
        agreement.push(agrees(score, i, j));
        agreementRaw.push(agrees(raw, i, j));
      }
    }
  }
  return { first: Int32Array.from(first), second: Int32Array.from(second), agreement: Float64Array.from(agreement), agreementRaw: Float64Array.from(agreementRaw) };
}

/** The segments' indices, each segment sorted by the keys in turn (segments keep their place). */
function sortedSegments(segments: readonly (readonly number[])[], ...keys: Float64Array[]): Int32Array {
  return Int32Array.from(
    segments.flatMap((s) =>
      [...s].sort((a, b) => {
        for (const key of keys) if (key[a] !== key[b]) return key[a]! - key[b]!;
        return 0;
      }),
    ),
  );
}

/** A PairTable of x against y, tallied per segment. */
function pairTable(segments: readonly (readonly number[])[], x: Float64Array, y: Float64Array): PairTable {
  const byY = sortedSegments(segments, y);
  const yRank = new Int32Array(x.length);
  let from = 0;
  for (const s of segments) {
    for (let k = from + 1; k < from + s.length; k++) yRank[byY[k]!] = yRank[byY[k - 1]!]! + (y[byY[k]!] === y[byY[k - 1]!] ? 0 : 1);
    from += s.length;
  }
  return { order: sortedSegments(segments, x, y), x, yRank };
}

/** Points in value order, cut into runs of equal values: run r is order[bounds[r]] .. order[bounds[r + 1] - 1]. */
interface TieRuns {
  order: Int32Array;
  bounds: Int32Array;
}

function tieRuns(order: Int32Array, values: Float64Array): TieRuns {
  const bounds = [0];
  for (let k = 1; k < order.length; k++) if (values[order[k]!] !== values[order[k - 1]!]) bounds.push(k);
  bounds.push(order.length);
  return { order, bounds: Int32Array.from(bounds) };
}

/**
 * Midranks (0-based) of the drawn points, each point counted as often as drawn: a run of
 * equal values drawn m times in all takes the next m ranks, and each copy gets their mean.
 */
function midranksInto({ order, bounds }: TieRuns, drawn: Int32Array, ranks: Float64Array): void {
  let position = 0;
  for (let r = 0; r + 1 < bounds.length; r++) {
    const from = bounds[r]!;
    const to = bounds[r + 1]!;
    let m = 0;
    for (let k = from; k < to; k++) m += drawn[order[k]!]!;
    const midrank = position + (m - 1) / 2;
    for (let k = from; k < to; k++) ranks[order[k]!] = midrank;
    position += m;
  }
}

/** Pearson correlation of midranks, each point weighted by its draws (both means are (N - 1) / 2); null without variance. */
function drawnCorrelation(rx: Float64Array, ry: Float64Array, drawn: Int32Array): number | null {
  let total = 0;
  for (let i = 0; i < drawn.length; i++) total += drawn[i]!;
  const mean = (total - 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < drawn.length; i++) {
    const d = drawn[i]!;
    if (d === 0) continue;
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += d * dx * dy;
    sxx += d * dx * dx;
    syy += d * dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
