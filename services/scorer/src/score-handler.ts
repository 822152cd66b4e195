import { describeModelError, isModelError } from "@adrank/models";
import type { JobContext } from "@adrank/messaging";
import type { ScoreJob, ScoreResult } from "@adrank/bus-contracts";
import { evaluate, EvaluationError, type EvaluationDeps } from "./evaluate.ts";

/** The error sentence of a job whose every delivery failed. */
export const SCORE_EXHAUSTED_ERROR = "The asset could not be scored after several attempts.";

/**
 * Turns one job into its outcome. Failures a user should know about (a model refusing,
 * timing out, an expired image) become per-asset error sentences; anything else is thrown so
 * the job worker retries it on another delivery.
 */
export function createScoreHandler(deps: EvaluationDeps) {
  return async (job: ScoreJob, { signal }: JobContext): Promise<ScoreResult["outcome"]> => {
    try {
      const evaluation = await evaluate(job, deps, signal);
      return { ok: true, evaluation };
    } catch (err) {
      const sentence = userFacingError(err, signal);
      if (sentence) return { ok: false, error: sentence };
      throw err;
    }
  };
}

function userFacingError(err: unknown, signal: AbortSignal): string | null {
  if (err instanceof EvaluationError) return err.message;
  if (signal.aborted) return "Scoring did not finish before the request's time limit.";
  if (isModelError(err)) return describeModelError(err, "scoring model");
  return null;
}
