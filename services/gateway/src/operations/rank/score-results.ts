import { openResultJoin as openJoin, type JoinLogger, type ResultRouter } from "@adrank/messaging";
import { ScoreResult } from "@adrank/bus-contracts";
import type { EvaluationOutcome } from "@adrank/rank-assembly";

export type { JoinLogger };

/**
 * The score results of one rank batch, joined by job id (see messaging's openResultJoin).
 * When `stop` fires every evaluation still waiting gets the stop's sentence as its error.
 */
export function openScoreResults(router: ResultRouter, stop: AbortSignal, stopReason: () => string, log: JoinLogger) {
  const join = openJoin<EvaluationOutcome>(router, {
    stop,
    onStop: () => ({ ok: false, error: stopReason() }),
    decode: (payload) => {
      const { outcome } = ScoreResult.parse(payload);
      return outcome.ok ? { ok: true, evaluation: outcome.evaluation } : { ok: false, error: outcome.error };
    },
    log,
  });
  return {
    expect: (jobId: string) => join.expect(jobId),
    /** The `replyTo` of the job, for its result to reach this join. */
    replyTo: (jobId: string) => join.replyTo(jobId),
    /** Ends the wait for a job that could not be published. */
    fail: (jobId: string, error: string) => join.fail(jobId, { ok: false, error }),
    close: () => join.close(),
  };
}
export type ScoreResults = ReturnType<typeof openScoreResults>;
