import type { ClosePair } from "./close-pairs.ts";

/** What a panel decided about a close pair, by asset key; null winner when it decided nothing. */
export interface PairVerdict {
  pair: ClosePair;
  winner: number | null;
  votesFor: number;
  votesTotal: number;
  consistency: number;
}

export interface AppliedVerdict {
  pair: ClosePair;
  winner: number;
  loser: number;
  /**
   * True when the panel's winner had the lower RAW score (score_before_refine) than the
   * loser: the panel reversed the two assets' raw order. What `panel_outcome.flipped` and
   * a result's `flipped` report.
   */
  flipped: boolean;
  /**
   * True when the winner held the lower score at the moment the verdict applied, so the
   * two swapped scores. After earlier swaps this can differ from `flipped` either way.
   */
  swapped: boolean;
  scoresBefore: { winner: number; loser: number };
  scoresAfter: { winner: number; loser: number };
  votesFor: number;
  votesTotal: number;
  consistency: number;
}

export interface Adjustment {
  /** Final score per key; keys not refined keep their raw score. */
  scores: Map<number, number>;
  /** Verdicts that named a winner, in the order they were applied (closest pair first). */
  applied: AppliedVerdict[];
  /** The last applied verdict that involved each key: what its `panel_outcome` reports. */
  outcomeOf: Map<number, AppliedVerdict>;
}

/**
 * Applies panel verdicts in order of closeness (the order given). When the winner holds the
 * lower score at that moment, the two assets swap scores, so the set of scores stays the
 * raw set and the order between them follows the panel. Verdicts apply to the scores as
 * earlier swaps left them: a later pair sharing an asset sees its new score (chained
 * swaps). Whether a verdict flipped the pair is judged on the raw scores instead: a
 * verdict that only undoes an earlier swap agrees with the raw order. A panel without a
 * winner (tie, or no valid vote) changes nothing. An exact tie in score is neither a swap
 * nor a flip: swapping equal scores would change nothing.
 *
 * @example
 * adjustScores(new Map([[0, 3.2], [1, 3.1]]), [{ pair, winner: 1, votesFor: 4, votesTotal: 5, consistency: 1 }]);
 */
export function adjustScores(rawScores: ReadonlyMap<number, number>, verdicts: readonly PairVerdict[]): Adjustment {
  const scores = new Map(rawScores);
  const applied: AppliedVerdict[] = [];
  const outcomeOf = new Map<number, AppliedVerdict>();
  for (const verdict of verdicts) {
    if (verdict.winner === null) continue;
    const { higher, lower } = verdict.pair;
    if (verdict.winner !== higher && verdict.winner !== lower) throw new Error(`verdict names asset ${verdict.winner}, which is not in pair ${higher}/${lower}`);
    const winner = verdict.winner;
    const loser = winner === higher ? lower : higher;
    const winnerScore = scoreOf(scores, winner);
    const loserScore = scoreOf(scores, loser);
    const swapped = winnerScore < loserScore;
    if (swapped) {
      scores.set(winner, loserScore);
      scores.set(loser, winnerScore);
    }
    const entry: AppliedVerdict = {
      pair: verdict.pair,
      winner,
      loser,
      flipped: scoreOf(rawScores, winner) < scoreOf(rawScores, loser),
      swapped,
      scoresBefore: { winner: winnerScore, loser: loserScore },
      scoresAfter: { winner: scoreOf(scores, winner), loser: scoreOf(scores, loser) },
      votesFor: verdict.votesFor,
      votesTotal: verdict.votesTotal,
      consistency: verdict.consistency,
    };
    applied.push(entry);
    outcomeOf.set(winner, entry);
    outcomeOf.set(loser, entry);
  }
  return { scores, applied, outcomeOf };
}

function scoreOf(scores: ReadonlyMap<number, number>, key: number): number {
  const s = scores.get(key);
  if (s === undefined) throw new Error(`no score for asset ${key}`);
  return s;
}
