import { panelPreferenceProbability } from "./panel-preference-probability.ts";
import { betaQuantile } from "./special/beta-quantile.ts";
import { assertVoteCounts } from "./vote-counts.ts";

/** One asset's share of a pairwise panel vote, with its uncertainty. */
export interface WinProbability {
  /** Posterior mean share of voters preferring the winner: (1 + k)/(2 + k + m). */
  value: number;
  /** 2.5 % quantile of the posterior Beta(1 + k, 1 + m). */
  ci_low: number;
  /** 97.5 % quantile of the posterior Beta(1 + k, 1 + m). */
  ci_high: number;
  /** Probability that more than half of voters prefer the winner (panelPreferenceProbability). */
  p_better: number;
}

/** Two-sided mass left outside the credible interval. */
const OUTSIDE = 0.05;

/**
 * The share of voters preferring the winner of a pairwise vote, as a Bayesian estimate.
 *
 * Model: uniform Beta(1, 1) prior on θ, the share preferring the winner; k votes for it and m
 * for the other give the posterior Beta(1 + k, 1 + m). Then
 *   value = (1 + k)/(2 + k + m), the posterior mean;
 *   [ci_low, ci_high] = the equal-tailed 95 % interval, Beta quantiles at 0.025 and 0.975;
 *   p_better = P(θ > ½) = panelPreferenceProbability(k, m).
 *
 * Returns null when nobody voted.
 *
 * @throws RangeError when a count is negative or not finite.
 *
 * @example
 * winProbability(4, 1); // { value: 5/7, ci_low ≈ 0.359, ci_high ≈ 0.957, p_better: 0.890625 }
 */
export function winProbability(votesForWinner: number, votesForOther: number): WinProbability | null {
  assertVoteCounts("winProbability", votesForWinner, votesForOther);
  if (votesForWinner + votesForOther === 0) return null;
  const a = 1 + votesForWinner;
  const b = 1 + votesForOther;
  return {
    value: a / (a + b),
    ci_low: betaQuantile(OUTSIDE / 2, a, b),
    ci_high: betaQuantile(1 - OUTSIDE / 2, a, b),
    p_better: panelPreferenceProbability(votesForWinner, votesForOther),
  };
}
