import { groupBy } from "./group-by.ts";
import { concordantOf, pairCounts, type PairCounts } from "./pair-counts.ts";

// The figure a customer reads most directly: "of two creatives shown in the same ranking, how
// often did the higher score go with the better outcome?" Pairs across rankings are not
// compared: scores of different rankings (other audience, other goal) are not on one scale.

export interface AgreementPoint {
  stratum: string;
  score: number;
  outcome: number;
}

export interface PairwiseAgreement {
  /** Share of counted pairs the score orders like the outcome (a score tie counts half); null without pairs. */
  agreement: number | null;
  /** Pairs inside one stratum whose outcomes differ: the pairs counted. */
  pairs: number;
}

/**
 * Pairwise agreement of score with outcome. Only pairs of one stratum with different outcomes
 * count (a tie in outcome says nothing about which score should be higher); a tie in score
 * counts 0.5, what a coin would score.
 *
 * @example
 * pairwiseAgreement([
 *   { stratum: "r1", score: 0.9, outcome: 3 }, { stratum: "r1", score: 0.2, outcome: 1 },
 * ]); // { agreement: 1, pairs: 1 }
 */
export function pairwiseAgreement(points: readonly AgreementPoint[]): PairwiseAgreement {
  const strata = groupBy(points, (p) => p.stratum).values();
  return agreementOfCounts(Array.from(strata, (s) => pairCounts(s.map((p) => p.score), s.map((p) => p.outcome))));
}

/** Pairs of a tally that agreement counts: those whose outcomes (y) differ. */
export const countedPairsOf = (c: PairCounts): number => c.pairs - c.yTies;

/** Agreeing pairs of a tally: the concordant ones, and half of those tied in score (x) only. */
export const agreedPairsOf = (c: PairCounts): number => concordantOf(c) + (c.xTies - c.jointTies) / 2;

/** Agreement summed over strata, from each stratum's tally of pairs (x = score, y = outcome). */
export function agreementOfCounts(counts: Iterable<PairCounts>): PairwiseAgreement {
  let agreed = 0;
  let pairs = 0;
  for (const c of counts) {
    agreed += agreedPairsOf(c);
    pairs += countedPairsOf(c);
  }
  return { agreement: pairs === 0 ? null : agreed / pairs, pairs };
}
