import type { FastifyInstance } from "fastify";
import { OUTCOME_METRICS_PER_ACCOUNT, OUTCOMES_PER_ACCOUNT, RecordOutcomesRequest, type RecordedOutcome, type RecordOutcomesResponse } from "@adrank/contracts";
import { OutcomeQuotaExceeded, type OutcomeQuota, type RecordedOutcomeRecord } from "@adrank/db/repositories";
import { TooManyCallsError } from "../../errors/api-errors.ts";
import { parseJsonBody } from "../../http/parse-body.ts";
import { CALL_WINDOW_MAX_ACCOUNTS, createCallWindow } from "../shared/call-window.ts";
import { quotaRefusal } from "./quota-refusal.ts";
import { refuseRepeatedOutcomes } from "./repeated-outcome.ts";
import { resolveOutcomes } from "./resolve-outcomes.ts";

/** What one account may do here (settings OUTCOME_METRICS_MAX, OUTCOME_ROWS_MAX, OUTCOMES_CALLS_PER_MINUTE). */
export interface OutcomeLimits extends OutcomeQuota {
  /** Calls per account per minute on one gateway. */
  callsPerMinute: number;
}

export const DEFAULT_OUTCOME_LIMITS: OutcomeLimits = { maxMetrics: OUTCOME_METRICS_PER_ACCOUNT, maxRows: OUTCOMES_PER_ACCOUNT, callsPerMinute: 60 };

/**
 * 500 outcomes take well under half of this even with 128-character ids written as \u
 * escapes; the 25 MiB of image requests is not read for a list of numbers.
 */
export const OUTCOMES_BODY_LIMIT_BYTES = 1024 * 1024;

function toRecordedOutcome(r: RecordedOutcomeRecord): RecordedOutcome {
  return {
    request_id: r.requestId,
    asset_id: r.assetId,
    metric: r.metric,
    value: r.value,
    impressions: r.impressions,
    goal: r.goal,
    score: r.score,
    score_before_refine: r.scoreBeforeRefine,
    simulated: r.simulated,
    change: r.change,
    recorded_at: r.recordedAt.toISOString(),
  };
}

/**
 * POST /api/v1/outcomes (operation recordOutcomes): observed outcomes of assets of the
 * caller's past rank requests, recorded whole or not at all. Free of credits, so bounded
 * otherwise: calls per account per minute (429), and per-account quotas on metric names and
 * stored rows (422), since every row is work for each calibration report. Each row keeps the
 * score its ranking gave, so calibration outlives the ranking.
 */
export default async function outcomesRoutes(app: FastifyInstance, opts: { limits?: OutcomeLimits; now?: () => number }) {
  const limits = opts.limits ?? DEFAULT_OUTCOME_LIMITS;
  const calls = createCallWindow({ limit: limits.callsPerMinute, windowMs: 60_000, maxAccounts: CALL_WINDOW_MAX_ACCOUNTS, now: opts.now ?? Date.now });
  app.addHook("onRequest", app.authenticate);
  // Before the body is read: a refused call costs no parsing.
  app.addHook("preParsing", async (request) => {
    const verdict = calls.take(request.caller!.accountId);
    if (!verdict.ok) {
      throw new TooManyCallsError(`Rate limit reached: this account may record outcomes ${limits.callsPerMinute} times per minute. Retry after ${verdict.retryAfter} s.`, verdict.retryAfter, verdict.resetAt);
    }
  });

  app.post("/", { bodyLimit: OUTCOMES_BODY_LIMIT_BYTES }, async (request): Promise<RecordOutcomesResponse> => {
    const accountId = request.caller!.accountId;
    // UUIDs are case-insensitive (RFC 9562); ours are lower case, and one spelling keeps one row per request.
    const items = parseJsonBody(RecordOutcomesRequest, request.body).outcomes.map((o) => ({ ...o, request_id: o.request_id.toLowerCase() }));
    refuseRepeatedOutcomes(items);
    const requests = await app.repos.outcomes.findRequestResults(accountId, items.map((o) => o.request_id));
    const recorded = await app.repos.outcomes.record(accountId, resolveOutcomes(items, requests), limits).catch((err: unknown) => {
      throw err instanceof OutcomeQuotaExceeded ? quotaRefusal(err, items) : err;
    });
    const count = (change: RecordedOutcome["change"]) => recorded.filter((r) => r.change === change).length;
    return { created: count("created"), updated: count("updated"), unchanged: count("unchanged"), outcomes: recorded.map(toRecordedOutcome) };
  });
}
