import { describeModelError, isModelError } from "@adrank/models";
import type { JobContext } from "@adrank/messaging";
import type { ScoreJob, ScoreResult } from "@adrank/bus-contracts";
import { evaluate, EvaluationError, type EvaluationDeps } from "./evaluate.ts";

/** The error sentence of a job whose every delivery failed. */
export const SCORE_EXHAUSTED_ERROR = "The asset could not be scored after several attempts.";

/**
 * Turns one job into its outcome. Failures a user should know about (a model refusing,
 * timing out, an expired image) become per-asset error sentences; anything else is thrown so
 * the job worker retries it on another delivery. With `methodKey`, every evaluation carries it.
 */
export function createScoreHandler(deps: EvaluationDeps & { methodKey?: string }) {
  return async (job: ScoreJob, { signal }: JobContext): Promise<ScoreResult["outcome"]> => {
    try {
      const evaluation = await evaluate(job, deps, signal);
      // The method key files the evaluation for reuse (issue 36): see scorer-method-key.ts.
      return { ok: true, evaluation: deps.methodKey === undefined ? evaluation : { ...evaluation, methodKey: deps.methodKey } };
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
