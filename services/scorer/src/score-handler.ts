import { hostname } from "node:os";
import { describeModelError, isModelError } from "@adrank/models";
import type { Reply, Topology } from "@adrank/messaging";
import type { ScoreJob, ScoreResult } from "@adrank/bus-contracts";
import { evaluate, EvaluationError, type EvaluationDeps } from "./evaluate.ts";

export const WORKER_ID = `${hostname()}:${process.pid}`;

/**
 * Turns one job into its reply. Failures a user should know about (a model refusing, timing
 * out, an expired image) become per-asset error sentences; anything else is thrown so the job
 * worker retries it on another delivery.
 */
export function createScoreHandler(topo: Topology, deps: EvaluationDeps) {
  return async (job: ScoreJob, signal: AbortSignal): Promise<Reply> => {
    const reply = (outcome: ScoreResult["outcome"]): Reply => ({
      subject: topo.result(job.requestId, job.jobId),
      payload: { requestId: job.requestId, jobId: job.jobId, worker: WORKER_ID, outcome } satisfies ScoreResult,
    });
    try {
      const evaluation = await evaluate(job, deps, signal);
      return reply({ ok: true, evaluation });
    } catch (err) {
      const sentence = userFacingError(err, signal);
      if (sentence) return reply({ ok: false, error: sentence });
      throw err;
    }
  };
}

export function failureReply(topo: Topology, job: ScoreJob): Reply {
  return {
    subject: topo.result(job.requestId, job.jobId),
    payload: { requestId: job.requestId, jobId: job.jobId, worker: WORKER_ID, outcome: { ok: false, error: "The asset could not be scored after several attempts." } } satisfies ScoreResult,
  };
}

function userFacingError(err: unknown, signal: AbortSignal): string | null {
  if (err instanceof EvaluationError) return err.message;
  if (signal.aborted) return "Scoring did not finish before the request's time limit.";
  if (isModelError(err)) return describeModelError(err, "scoring model");
  return null;
}
