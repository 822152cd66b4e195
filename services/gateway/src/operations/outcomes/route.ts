import type { FastifyInstance } from "fastify";
import { RecordOutcomesRequest, type RecordedOutcome, type RecordOutcomesResponse } from "@adrank/contracts";
import type { RecordedOutcomeRecord } from "@adrank/db/repositories";
import { parseJsonBody } from "../../http/parse-body.ts";
import { refuseRepeatedOutcomes } from "./repeated-outcome.ts";
import { resolveOutcomes } from "./resolve-outcomes.ts";

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
 * caller's past rank requests, recorded whole or not at all. Free: no credits, no rate-limit
 * window. Each row keeps the score its ranking gave, so calibration outlives the ranking.
 */
export default async function outcomesRoutes(app: FastifyInstance) {
  app.addHook("onRequest", app.authenticate);

  app.post("/", { bodyLimit: OUTCOMES_BODY_LIMIT_BYTES }, async (request): Promise<RecordOutcomesResponse> => {
    const accountId = request.caller!.accountId;
    // UUIDs are case-insensitive (RFC 9562); ours are lower case, and one spelling keeps one row per request.
    const items = parseJsonBody(RecordOutcomesRequest, request.body).outcomes.map((o) => ({ ...o, request_id: o.request_id.toLowerCase() }));
    refuseRepeatedOutcomes(items);
    const requests = await app.repos.outcomes.findRequestResults(accountId, items.map((o) => o.request_id));
    const recorded = await app.repos.outcomes.record(accountId, resolveOutcomes(items, requests));
    const count = (change: RecordedOutcome["change"]) => recorded.filter((r) => r.change === change).length;
    return { created: count("created"), updated: count("updated"), unchanged: count("unchanged"), outcomes: recorded.map(toRecordedOutcome) };
  });
}
