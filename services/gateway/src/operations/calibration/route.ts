import type { FastifyInstance } from "fastify";
import { CALIBRATION_OUTCOMES_READ_MAX, type CalibrationQuery, type CalibrationResponse } from "@adrank/contracts";
import { CalibrationTimeoutError, createCalibrationThread } from "@adrank/runtime";
import { CalibrationUnavailableError, TooManyCallsError } from "../../errors/api-errors.ts";
import { CALL_WINDOW_MAX_ACCOUNTS, createCallWindow } from "../shared/call-window.ts";
import { parseCalibrationQuery } from "./calibration-query.ts";
import { isQueryCancelled } from "./query-cancelled.ts";

/** What one report may cost (settings CALIBRATION_CALLS_PER_MINUTE, CALIBRATION_MAX_ROWS, CALIBRATION_TIMEOUT_MS). */
export interface CalibrationLimits {
  /** Reports per account per minute on one gateway. */
  callsPerMinute: number;
  /** Outcomes one report reads at most, the most recently recorded. */
  maxRows: number;
  /** The whole report: its query (a statement timeout) and its bootstrap (a deadline), waiting for the thread included. */
  timeoutMs: number;
}

/**
 * The read's statement_timeout stays under the database client's own read timeout (5 s, see
 * createDb), so that the database cancels a slow statement instead of running it on after the
 * client gave up.
 */
const QUERY_TIMEOUT_MAX_MS = 4_000;

export const DEFAULT_CALIBRATION_LIMITS: CalibrationLimits = { callsPerMinute: 30, maxRows: CALIBRATION_OUTCOMES_READ_MAX, timeoutMs: 10_000 };

/**
 * GET /api/v1/calibration (operation getCalibration): how well the caller's past scores
 * predicted the outcomes it recorded, per metric and goal, with bootstrap intervals and an
 * honest "not enough data" below the minimum (`calibrationReport` of @adrank/eval-stats, on
 * its own thread). Free of credits, so bounded otherwise, to keep one account from holding
 * the thread every account's reports share: calls per minute (429), one report at a time per
 * account (429), at most `maxRows` outcomes read (`truncated` says so), and a time limit
 * (503) that also frees the thread.
 */
export default async function calibrationRoutes(app: FastifyInstance, opts: { limits?: CalibrationLimits; now?: () => number }) {
  const limits = opts.limits ?? DEFAULT_CALIBRATION_LIMITS;
  const now = opts.now ?? Date.now;
  const calls = createCallWindow({ limit: limits.callsPerMinute, windowMs: 60_000, maxAccounts: CALL_WINDOW_MAX_ACCOUNTS, now });
  /** Accounts with a report in progress here: each waits its turn once, never with many reports at a time. */
  const inProgress = new Set<string>();
  const thread = createCalibrationThread();
  app.addHook("onRequest", app.authenticate);
  app.addHook("onClose", () => thread.close());

  app.get("/", async (request): Promise<CalibrationResponse> => {
    const query = parseCalibrationQuery(request.query);
    const accountId = request.caller!.accountId;
    const verdict = calls.take(accountId);
    if (!verdict.ok) throw new TooManyCallsError(`Rate limit reached: this account may ask for ${limits.callsPerMinute} calibration reports per minute. Retry after ${verdict.retryAfter} s.`, verdict.retryAfter, verdict.resetAt);
    if (inProgress.has(accountId)) {
      const wait = Math.max(1, Math.ceil(limits.timeoutMs / 1000));
      throw new TooManyCallsError(`A calibration report of this account is still being computed; one runs at a time. Retry after ${wait} s.`, wait, Math.ceil((now() + limits.timeoutMs) / 1000));
    }
    inProgress.add(accountId);
    try {
      return await report(accountId, query);
    } finally {
      inProgress.delete(accountId);
    }
  });

  async function report(accountId: string, query: CalibrationQuery): Promise<CalibrationResponse> {
    // The wall clock, not `now`: the worker thread checks the deadline against it.
    const deadlineAt = Date.now() + limits.timeoutMs;
    const unavailable = (cause: unknown) => new CalibrationUnavailableError(limits.timeoutMs, 5, { cause });
    const read = await app.repos.outcomes.readForCalibration(accountId, query, { limit: limits.maxRows, timeoutMs: Math.min(limits.timeoutMs, QUERY_TIMEOUT_MAX_MS) }).catch((err: unknown) => {
      throw isQueryCancelled(err) ? unavailable(err) : err;
    });
    const answer = await thread.report(read.rows, { deadlineAt }).catch((err: unknown) => {
      throw err instanceof CalibrationTimeoutError ? unavailable(err) : err;
    });
    return read.truncated ? { ...answer, truncated: true } : answer;
  }
}
