import type { AnswerWarning, ClosePairResult, PairwiseResult, WarningCode } from "@adrank/contracts";
import type { EvaluationReceipt } from "@adrank/bus-contracts";
import { batchSeparation, BATCH_SEPARATION_ALPHA } from "@adrank/uncertainty";
import type { ScoredAsset } from "../scored-asset.ts";

/** A score at or above this rounds to level 4 or 5: the top two buckets. */
export const UNIFORMLY_POSITIVE_FLOOR = 3.5;

const warning = (code: WarningCode, message: string): AnswerWarning => ({ code, message });
const fixed = (x: number, digits = 2) => x.toFixed(digits);

/** `simulated`: the offline sim answered, so the figures demonstrate the service and predict nothing. */
export function simulatedWarning(simulated: boolean): AnswerWarning[] {
  if (!simulated) return [];
  return [warning("simulated", "The offline sim model produced this answer: it reads image statistics and copy heuristics, not a language model's judgement. Treat it as a demonstration, not a prediction.")];
}

/**
 * `anchors_not_separable`: some reference set's anchors are, under the embedder, more alike than
 * the scorer's limit, so every answer lands near all of them and scores drift towards 3.
 */
export function anchorWarnings(receipts: readonly (EvaluationReceipt | undefined)[]): AnswerWarning[] {
  const known = receipts.filter((r): r is EvaluationReceipt => r !== undefined);
  const crowded = new Map<string, number>();
  let limit = Infinity;
  for (const r of known) {
    limit = Math.min(limit, r.similarityLimit);
    for (const set of r.referenceSets) if (set.meanSimilarity !== null && set.meanSimilarity > r.similarityLimit) crowded.set(set.hash, Math.max(crowded.get(set.hash) ?? 0, set.meanSimilarity));
  }
  if (crowded.size === 0) return [];
  const total = known[0]?.referenceSets.length ?? crowded.size;
  const worst = Math.max(...crowded.values());
  return [
    warning(
      "anchors_not_separable",
      `The embedding model finds the five anchor statements of ${crowded.size} of ${total} reference sets too alike (mean similarity up to ${fixed(worst)}, limit ${fixed(limit)}): every answer sits close to every level, so scores drift towards 3 and differences shrink. Ask the operator to check the embedding model (docs/method.md).`,
    ),
  ];
}

/**
 * `batch_not_separated`: a one-way ANOVA over the repetition scores cannot tell the assets apart
 * at the 5 % level, so the order among them is mostly the repetitions' own noise.
 */
export function separationWarnings(ranked: readonly ScoredAsset[]): AnswerWarning[] {
  const test = batchSeparation(ranked.map((a) => a.evaluation.repetitionScores));
  if (test === null || !(test.pValue > BATCH_SEPARATION_ALPHA)) return [];
  return [
    warning(
      "batch_not_separated",
      `The ${ranked.length} assets' scores differ by no more than the repetitions' own noise (one-way ANOVA, F = ${fixed(test.f)}, p = ${fixed(test.pValue)}): the order is mostly chance. Treat them as tied, or put the leading pair to a panel with POST /api/v1/pairwise.`,
    ),
  ];
}

/** `uniformly_positive`: every ranked asset (two or more) scored in the top two levels. */
export function positivityWarnings(ranked: readonly Pick<ScoredAsset, "score">[]): AnswerWarning[] {
  if (ranked.length < 2 || !ranked.every((a) => a.score >= UNIFORMLY_POSITIVE_FLOOR)) return [];
  return [
    warning(
      "uniformly_positive",
      `Every one of the ${ranked.length} assets scored ${UNIFORMLY_POSITIVE_FLOOR} or more, the top two levels: synthetic respondents are known to lean positive, so read the scores as an order, not as approval.`,
    ),
  ];
}

/** True when a panel's valid votes were split by exactly one vote (3–2, 2–1, 1–0). */
function splitByOne(panel: Pick<PairwiseResult, "winnerId" | "votesFor" | "votesTotal">): boolean {
  if (!panel.winnerId || panel.votesFor === undefined || panel.votesTotal === undefined) return false;
  return panel.votesFor - (panel.votesTotal - panel.votesFor) === 1;
}

/**
 * `panel_split` in a ranking: a refinement panel overruled the raw scores by one vote, so a
 * single voter decided that order.
 */
export function refinementSplitWarnings(results: readonly ClosePairResult[]): AnswerWarning[] {
  const decided = results.filter((r) => r.flipped && splitByOne(r));
  if (decided.length === 0) return [];
  const names = decided.map((r) => `${r.winnerId} over ${r.winnerId === r.aId ? r.bId : r.aId} (${r.votesFor}–${r.votesTotal! - r.votesFor!})`).join(", ");
  return [warning("panel_split", `A one-vote panel majority reversed the scores' order: ${names}. That order rests on a single voter; p_above_next says how sure it is.`)];
}

/** `panel_split` in a pairwise answer: a pair's winner won by one vote. */
export function pairwiseSplitWarnings(results: readonly PairwiseResult[]): AnswerWarning[] {
  const split = results.filter(splitByOne);
  if (split.length === 0) return [];
  const names = split.map((r) => `${r.pairId} (${r.votesFor}–${r.votesTotal! - r.votesFor!})`).join(", ");
  return [warning("panel_split", `${split.length === 1 ? "A pair was" : `${split.length} pairs were`} decided by one vote: ${names}. Read win_probability before acting on such a winner.`)];
}
