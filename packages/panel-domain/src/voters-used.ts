/** The part of a presented vote that says who cast it. */
export interface VoteAuthor {
  model?: string | undefined;
  simulated?: boolean | undefined;
}

/**
 * The voter models that cast the given votes, each once, in the order they first voted (seat
 * order within a panel), and whether any of them is the offline sim. A vote no model answered
 * names none. Older voters report no `simulated`; their `sim:` model name says it.
 *
 * @example
 * votersUsed([{ model: "sim:sim-voter", simulated: true }, { model: "sim:sim-voter" }]);
 * // { voters: ["sim:sim-voter"], simulated: true }
 */
export function votersUsed(votes: Iterable<VoteAuthor>): { voters: string[]; simulated: boolean } {
  const voters = new Set<string>();
  let simulated = false;
  for (const vote of votes) {
    if (vote.model === undefined) continue;
    voters.add(vote.model);
    if (vote.simulated === true || vote.model.startsWith("sim:")) simulated = true;
  }
  return { voters: [...voters], simulated };
}
