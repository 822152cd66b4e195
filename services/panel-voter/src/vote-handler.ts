import { describeModelError, isModelError } from "@adrank/models";
import type { JobContext } from "@adrank/messaging";
import type { VoteJob, VoteResult } from "@adrank/bus-contracts";
import { castVote, VoteError, type CastVoteDeps } from "./cast-vote.ts";

/** The error sentence of a vote whose every delivery failed. */
export const VOTE_EXHAUSTED_ERROR = "The vote could not be cast after several attempts.";

/**
 * Turns one vote job into its outcome. A failure the requester should know about (the model
 * refusing or timing out, an expired image) becomes the vote's reason; anything else is
 * thrown so the job worker retries it on another delivery.
 */
export function createVoteHandler(deps: CastVoteDeps) {
  return async (job: VoteJob, { signal }: JobContext): Promise<VoteResult["outcome"]> => {
    try {
      return await castVote(job, deps, signal);
    } catch (err) {
      if (err instanceof VoteError) return { ok: false, error: err.message };
      if (isModelError(err) && !signal.aborted) return { ok: false, error: describeModelError(err, "voter model") };
      throw err;
    }
  };
}
