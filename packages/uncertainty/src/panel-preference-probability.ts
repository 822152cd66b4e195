import { regularizedIncompleteBeta } from "./special/regularized-incomplete-beta.ts";
import { assertVoteCounts } from "./vote-counts.ts";

/**
 * The probability that most of the voting population prefers the upper asset, given the
 * panel's votes.
 *
 * Model: θ, the share of voters who prefer the upper asset, has a uniform Beta(1, 1) prior;
 * after k votes for the upper and m for the lower its posterior is Beta(1 + k, 1 + m), and
 *   P(θ > ½) = 1 − I_½(1 + k, 1 + m) = I_½(1 + m, 1 + k)
 * (the second form, by the symmetry of the incomplete beta, avoids a subtraction).
 * With no votes it is ½.
 *
 * @throws RangeError when a count is negative or not finite.
 *
 * @example
 * panelPreferenceProbability(4, 1); // 57/64 = 0.890625
 */
export function panelPreferenceProbability(votesForUpper: number, votesForLower: number): number {
  assertVoteCounts("panelPreferenceProbability", votesForUpper, votesForLower);
  return regularizedIncompleteBeta(0.5, 1 + votesForLower, 1 + votesForUpper);
}
