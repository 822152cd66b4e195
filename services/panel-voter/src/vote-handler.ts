import { hostname } from "node:os";
import { describeModelError, isModelError } from "@adrank/models";
import type { Reply, Topology } from "@adrank/messaging";
import type { VoteJob, VoteResult } from "@adrank/bus-contracts";
import { castVote, VoteError, type CastVoteDeps } from "./cast-vote.ts";

export const WORKER_ID = `${hostname()}:${process.pid}`;

function replyTo(topo: Topology, job: VoteJob, outcome: VoteResult["outcome"]): Reply {
  return { subject: topo.result(job.requestId, job.jobId), payload: { requestId: job.requestId, jobId: job.jobId, worker: WORKER_ID, outcome } satisfies VoteResult };
}

/**
 * Turns one vote job into its reply. A failure the requester should know about (the model
 * refusing or timing out, an expired image) becomes the vote's reason; anything else is
 * thrown so the job worker retries it on another delivery.
 */
export function createVoteHandler(topo: Topology, deps: CastVoteDeps) {
  return async (job: VoteJob, signal: AbortSignal): Promise<Reply> => {
    try {
      return replyTo(topo, job, await castVote(job, deps, signal));
    } catch (err) {
      if (err instanceof VoteError) return replyTo(topo, job, { ok: false, error: err.message });
      if (isModelError(err) && !signal.aborted) return replyTo(topo, job, { ok: false, error: describeModelError(err, "voter model") });
      throw err;
    }
  };
}

export function voteFailureReply(topo: Topology, job: VoteJob): Reply {
  return replyTo(topo, job, { ok: false, error: "The vote could not be cast after several attempts." });
}
