import { combineIndependentEvidence } from "./combine-independent-evidence.ts";
import { panelPreferenceProbability } from "./panel-preference-probability.ts";
import type { RepetitionNoise } from "./repetition-noise.ts";
import { DEFAULT_REPETITIONS, scoreOrderProbability } from "./score-order-probability.ts";
import { assertVoteCounts } from "./vote-counts.ts";

/** Panel votes on one pair: how many voters chose each asset. */
export interface PanelVotes {
  forUpper: number;
  forLower: number;
}

/** What is known about one adjacent pair of a ranking. */
export interface AboveNextInput {
  /** Mean repetition score of the asset ranked above. */
  upperMean: number;
  /** Mean repetition score of the asset ranked just below it. */
  lowerMean: number;
  /** The batch's repetition noise (repetitionNoise). */
  noise: RepetitionNoise;
  /** Repetitions behind each mean; 3 when absent. */
  repetitions?: number;
  /** The panel's votes on this pair, when the pair went to the panel. */
  panel?: PanelVotes | null;
}

/**
 * The probability that the upper asset truly belongs above the lower one, from the scores
 * and, when the pair went to a panel, the panel's votes.
 *
 * Formula: p_score = scoreOrderProbability(upperMean, lowerMean, noise, repetitions); with
 * a panel of at least one vote, p_panel = panelPreferenceProbability(forUpper, forLower) and
 * the answer is combineIndependentEvidence(p_score, p_panel) (the votes do not see the
 * scores, so the two are independent evidence). When p_score is null (noise unknown) the
 * panel's part alone is returned; null when neither says anything.
 *
 * @throws RangeError when a mean or vote count is invalid (see scoreOrderProbability).
 *
 * @example
 * aboveNextProbability({ upperMean: 7, lowerMean: 7, noise: { sd: 1, df: 8 }, panel: { forUpper: 4, forLower: 1 } }); // 57/64
 */
export function aboveNextProbability(input: AboveNextInput): number | null {
  const score = scoreOrderProbability(input.upperMean, input.lowerMean, input.noise, input.repetitions ?? DEFAULT_REPETITIONS);
  const panel = input.panel;
  if (!panel) return score;
  assertVoteCounts("aboveNextProbability", panel.forUpper, panel.forLower);
  if (panel.forUpper + panel.forLower === 0) return score;
  const panelPart = panelPreferenceProbability(panel.forUpper, panel.forLower);
  return score === null ? panelPart : combineIndependentEvidence(score, panelPart);
}
