import type { z } from "zod";
import {
  CreateAudienceRequest, CalibrationQuery, validationError, OUTCOME_METRICS_PER_ACCOUNT, OUTCOMES_PER_ACCOUNT,
  RecordOutcomesRequest, PairwiseRequest, RankRequest, RankAudiencesRequest, IDEMPOTENCY_KEY_HEADER, idempotencyKeyProblem,
  LIMITS, type ErrorResponse, type RateLimitedResponse,
} from "@adrank/contracts";
import { TRAIL_RUNNERS, TRAIL_RUNNERS_ID } from "./audience.ts";
import { SUNRISE_RUN_PNG } from "./images.ts";
import type { Examples, NamedExample } from "./named-example.ts";
import { recordOutcomesRequestExamples } from "./outcomes.ts";
import { rankResponseExamples } from "./rank.ts";
import { BARGAIN_HUNTERS, rankAudiencesRequestExamples } from "./rank-audiences.ts";
import { ASYNC_PAIRWISE_ID } from "./requests.ts";
import { EXAMPLE_WEBHOOK_URL } from "./webhook.ts";
import { oversizedForWindow } from "@adrank/rank-assembly";
import { KEY_EVALUATIONS_PER_MINUTE } from "../key-rate-limit.ts";

// Error bodies as the gateway sends them. The 422s are computed by the same mapping the
// gateway uses, from the two mistakes a first request most often makes.

type ErrorBody = z.output<typeof ErrorResponse>;

/** The 422 body the service answers for `body`, which `schema` must refuse. */
function refusal(schema: z.ZodType, body: unknown, summary: string): NamedExample<ErrorBody> {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error(`the 422 example "${summary}" is a valid body`);
  return { summary, value: validationError(parsed.error, body).body };
}

const one = (summary: string, value: ErrorBody): Examples<ErrorBody> => ({ example: { summary, value } });

export const badRequestExamples = one("No JSON body", { error: "The request body is empty; send a JSON object with `Content-Type: application/json`." });

export const unauthenticatedExamples = one("Missing, malformed, unknown or revoked key", { error: "Missing or invalid API key. Send `Authorization: Bearer agk_live_…`." });

export const bodyTooLargeExamples = one("Body over the limit", { error: "The request body is larger than the limit of 25 MiB." });

export const audienceNotFoundExamples = one("Unknown audience_id", { error: `No saved audience with id "${TRAIL_RUNNERS_ID}" exists for this account.`, field: "audience_id" });

/** Side by side, `field` names the audience in the list. */
export const rankAudiencesAudienceNotFoundExamples = one("Unknown audience_id in the list", { error: `No saved audience with id "${TRAIL_RUNNERS_ID}" exists for this account.`, field: "audiences[2].audience_id" });

export const internalErrorExamples = one("Unexpected failure", { error: "internal error", request_id: "e3b1c9a4-7d25-4f60-8b1e-5a9c0d2f4e67" });

export const votersUnavailableExamples = one("No voter running", { error: "No panel voter is available right now, so the comparison was not run and nothing was charged. Please retry shortly." });

export const rankInsufficientCreditsExamples = one("Credits short of the batch", {
  error: "Insufficient credits: this request can use up to 3 scoring evaluations and the account has 2 credits. Nothing was charged.",
});

export const rankAudiencesInsufficientCreditsExamples = one("Credits short of the batch", {
  error: "Insufficient credits: this request can use up to 15 scoring evaluations and the account has 9 credits. Nothing was charged.",
});

export const pairwiseInsufficientCreditsExamples = one("Credits short of the batch", {
  error: "Insufficient credits: this request can use up to 1 pairwise panel and the account has 0 credits. Nothing was charged.",
});

export const rankRateLimitedExamples: Examples<z.output<typeof RateLimitedResponse>> = {
  example: {
    summary: "Window full",
    value: { error: "Rate limit reached: this key may use 60 scoring evaluations per minute. Retry after 12 s.", retryAfter: 12, resetAt: 1757838109 },
  },
};

export const pairwiseRateLimitedExamples: Examples<z.output<typeof RateLimitedResponse>> = {
  example: {
    summary: "Window full",
    value: { error: "Rate limit reached: this key may use 60 pairwise panels per minute. Retry after 7 s.", retryAfter: 7, resetAt: 1757838104 },
  },
};

/** The 422 of an Idempotency-Key header the rule refuses, as the gateway words it. */
function keyRefusal(key: string, summary: string): NamedExample<ErrorBody> {
  const problem = idempotencyKeyProblem(key);
  if (problem === null) throw new Error(`the 422 example "${summary}" is a valid Idempotency-Key`);
  return { summary, value: { error: `${IDEMPOTENCY_KEY_HEADER} ${problem}.`, field: IDEMPOTENCY_KEY_HEADER } };
}

// The two ways an Idempotency-Key is refused, the same on rank and pairwise.
const idempotencyKeyRefusals: Examples<ErrorBody> = {
  badIdempotencyKey: keyRefusal("order 2025-09-14 #1", "An Idempotency-Key with spaces"),
  idempotencyKeyReused: {
    summary: "An Idempotency-Key reused with a different body",
    description: "A key names one request: within its 24 hours it replays that request, and refuses any other body or operation.",
    value: {
      error: "This Idempotency-Key was already used within the last 24 hours with a different request body (request_id 3b2e7c14-0f5a-4d8e-a6b1-92c7e4f0d381). Use a new key for a new request.",
      field: IDEMPOTENCY_KEY_HEADER,
    },
  },
};

const pair = { pair_id: "p1", a: { id: "a", image_url: SUNRISE_RUN_PNG }, b: { id: "b", image_url: SUNRISE_RUN_PNG } };

export const rankValidationExamples: Examples<ErrorBody> = {
  bothAudiences: refusal(RankRequest, { assets: [{ url: SUNRISE_RUN_PNG }], audience: TRAIL_RUNNERS, audience_id: TRAIL_RUNNERS_ID }, "Both audience and audience_id"),
  notAnImage: refusal(RankRequest, { assets: [{ url: "string" }], audience: TRAIL_RUNNERS }, "An asset url that is no image address"),
  webhookWithoutAsync: refusal(RankRequest, { assets: [{ url: SUNRISE_RUN_PNG }], audience_id: TRAIL_RUNNERS_ID, webhook_url: EXAMPLE_WEBHOOK_URL }, "webhook_url without async: true"),
  ...idempotencyKeyRefusals,
};

// rankAcrossAudiences: the schema's refusals, computed; and the one only the gateway words,
// a request larger than a rate window could ever hold.
const threeAudiences = Object.values(rankAudiencesRequestExamples)[0]!.value;
const EVALUATIONS_PER_ASSET_WITH_COPY = 2;
const largestRequest = LIMITS.assetsMax * LIMITS.audiencesMax * EVALUATIONS_PER_ASSET_WITH_COPY;

export const rankAudiencesValidationExamples: Examples<ErrorBody> = {
  oneAudience: refusal(RankAudiencesRequest, { ...threeAudiences, audiences: [BARGAIN_HUNTERS] }, "A single audience"),
  sameName: refusal(
    RankAudiencesRequest,
    { ...threeAudiences, audiences: [BARGAIN_HUNTERS, { ...BARGAIN_HUNTERS, name: " bargain Hunters " }] },
    "Two audiences whose names differ only in case and spaces",
  ),
  rankAudience: refusal(RankAudiencesRequest, { ...threeAudiences, audience: BARGAIN_HUNTERS }, "POST /api/v1/rank's audience instead of audiences"),
  webhookWithoutAsync: refusal(RankAudiencesRequest, { ...threeAudiences, webhook_url: EXAMPLE_WEBHOOK_URL }, "webhook_url without async: true"),
  tooManyEvaluations: {
    summary: "More evaluations than one minute of the key's rate limit",
    description: `Twenty assets with copy for five audiences need up to ${largestRequest} evaluations, and a request must fit in one window of the key's rate limit (${KEY_EVALUATIONS_PER_MINUTE} per minute). Waiting would never make it fit, so this is a 422, not a 429. Nothing was charged.`,
    value: {
      error: oversizedForWindow({ assets: LIMITS.assetsMax, assetsWithCopy: LIMITS.assetsMax, audiences: LIMITS.audiencesMax, maxEvaluations: largestRequest }, KEY_EVALUATIONS_PER_MINUTE)!,
      field: "audiences",
    },
  },
  ...idempotencyKeyRefusals,
};

export const pairwiseValidationExamples: Examples<ErrorBody> = {
  noAudience: refusal(PairwiseRequest, { pairs: [pair] }, "Neither audience nor audience_id"),
  webhookWithoutAsync: refusal(PairwiseRequest, { pairs: [pair], audience_id: TRAIL_RUNNERS_ID, webhook_url: EXAMPLE_WEBHOOK_URL }, "webhook_url without async: true"),
  ...idempotencyKeyRefusals,
};

export const audienceValidationExamples: Examples<ErrorBody> = {
  badDemographics: refusal(
    CreateAudienceRequest,
    { name: TRAIL_RUNNERS.name, demographics: { ageRange: "25-35" } },
    "A demographics value outside its list",
  ),
};

// recordOutcomes: the schema's refusals, computed; the refusals that need the stored
// ranking (which request, which asset), in the gateway's words.
const ctrBatch = Object.values(recordOutcomesRequestExamples)[0]!.value.outcomes;
const failedRanking = rankResponseExamples.assetFailed!.value;
const failedAsset = failedRanking.errors[0]!;

export const recordOutcomesValidationExamples: Examples<ErrorBody> = {
  valueNotANumber: refusal(RecordOutcomesRequest, { outcomes: [{ ...ctrBatch[0]!, value: "1.84%" }] }, "A value sent as a string"),
  unknownProperty: refusal(RecordOutcomesRequest, { outcomes: [{ ...ctrBatch[0]!, clicks: 887 }] }, "A property outside the schema"),
  repeated: {
    summary: "The same outcome twice in one batch",
    description: "Each (request_id, asset_id, metric) may appear once per batch. Nothing of the batch was recorded.",
    value: { error: "outcomes[1].metric repeats outcomes[0]: the same request_id, asset_id and metric may appear once per batch.", field: "outcomes[1].metric" },
  },
  pairwiseRequest: {
    summary: "A request_id of a pairwise comparison",
    description: "Outcomes belong to the assets of a ranking: a pairwise comparison gives no score to compare them with. A ranking still running, or one that failed, is refused the same way.",
    value: { error: `outcomes[0].request_id ${ASYNC_PAIRWISE_ID} is a pairwise request; outcomes are recorded against assets of rank requests (POST /api/v1/rank).`, field: "outcomes[0].request_id" },
  },
  assetNotRanked: {
    summary: "An asset that failed in its ranking",
    description: "Only ranked assets have a score to compare an outcome with; one listed in the ranking's errors has none, nor has an id the ranking was not sent.",
    value: {
      error: `outcomes[0].asset_id ${JSON.stringify(failedAsset.asset_id)} could not be scored in request ${failedRanking.request_id} (it is among its errors), so it has no score to compare.`,
      field: "outcomes[0].asset_id",
    },
  },
  metricQuota: {
    summary: `A ${OUTCOME_METRICS_PER_ACCOUNT + 1}st metric name`,
    description: `An account records outcomes under at most ${OUTCOME_METRICS_PER_ACCOUNT} metric names. Waiting does not free a quota, so this is a 422, not a 429. Nothing of the batch was recorded.`,
    value: {
      error: `outcomes[0].metric "revenue" would be a new metric name, and this account already records ${OUTCOME_METRICS_PER_ACCOUNT} of the ${OUTCOME_METRICS_PER_ACCOUNT} it may have. Record it under an existing metric name. Nothing of the batch was recorded.`,
      field: "outcomes[0].metric",
    },
  },
  rowQuota: {
    summary: "Outcomes beyond the account's quota",
    description: `An account stores at most ${OUTCOMES_PER_ACCOUNT.toLocaleString("en-US")} outcomes. New values of outcomes already stored are still accepted. Nothing of the batch was recorded.`,
    value: {
      error: `This batch would add 3 outcomes to the 99,998 this account has stored, and an account may store at most ${OUTCOMES_PER_ACCOUNT.toLocaleString("en-US")}. Nothing of the batch was recorded; new values for outcomes already stored are still accepted.`,
      field: "outcomes",
    },
  },
};

export const outcomesRateLimitedExamples: Examples<z.output<typeof RateLimitedResponse>> = {
  example: {
    summary: "Window full",
    value: { error: "Rate limit reached: this account may record outcomes 60 times per minute. Retry after 21 s.", retryAfter: 21, resetAt: 1757838120 },
  },
};

export const outcomeRequestNotFoundExamples: Examples<ErrorBody> = {
  requestNotFound: {
    summary: "Unknown request_id, or a request of another account",
    description: "Also a ranking older than its retention: outcomes are recorded while the ranking is still stored. Nothing of the batch was recorded.",
    value: { error: 'No request with id "8c1f0a52-7d3e-4b6a-9f21-5e0c4d7a2b19" exists for this account (outcomes[0].request_id). Outcomes are recorded against rankings of the last 30 days.', field: "outcomes[0].request_id" },
  },
};

/** The limit of a recordOutcomes body: 500 outcomes fit with room to spare; images are not sent here. */
export const OUTCOMES_BODY_LIMIT = "1 MiB";

export const outcomesBodyTooLargeExamples = one("Body over the limit", { error: `The request body is larger than the limit of ${OUTCOMES_BODY_LIMIT}.` });

export const calibrationValidationExamples: Examples<ErrorBody> = {
  unknownGoal: refusal(CalibrationQuery, { goal: "clicks" }, "A goal outside the list"),
  unknownParameter: {
    summary: "A query parameter the operation does not take",
    description: "A misspelt parameter is refused rather than ignored: ignoring it would answer for every metric.",
    value: { error: 'Unknown query parameter "metrics"; GET /api/v1/calibration takes metric and goal.', field: "metrics" },
  },
};

export const calibrationRateLimitedExamples: Examples<z.output<typeof RateLimitedResponse>> = {
  window: {
    summary: "Window full",
    value: { error: "Rate limit reached: this account may ask for 30 calibration reports per minute. Retry after 33 s.", retryAfter: 33, resetAt: 1757838120 },
  },
  oneAtATime: {
    summary: "The account's previous report still runs",
    description: "Reports of one account run one at a time, so that one account cannot crowd out the others' reports.",
    value: { error: "A calibration report of this account is still being computed; one runs at a time. Retry after 10 s.", retryAfter: 10, resetAt: 1757838097 },
  },
};

export const calibrationTimeoutExamples = one("The report took longer than its limit", {
  error: "The calibration report did not finish within its limit of 10 s: the server is busy with other reports, or this one is large. Nothing changed. Retry after 5 s, or narrow the report with ?metric= or ?goal=.",
});
