import type { z } from "zod";
import type { ErrorResponse, PairwiseResponse, RankAudiencesResponse, RankResponse, RequestStatus } from "@adrank/contracts";
import type { Examples, NamedExample } from "./named-example.ts";
import { pairwiseResponseExamples } from "./pairwise.ts";
import { rankResponseExamples } from "./rank.ts";
import { rankAudiencesRequestExamples, rankAudiencesResponseExamples } from "./rank-audiences.ts";
import { EXAMPLE_WEBHOOK_URL } from "./webhook.ts";

// One asynchronous ranking followed from its 202 to its result, one asynchronous pairwise
// request, one asynchronous ranking for several audiences, and one that failed: the bodies POST with `async: true` and GET
// /api/v1/requests/{request_id} answer. The results are the rank and pairwise response
// examples under these requests' ids.

type Status = z.output<typeof RequestStatus>;

/** The asynchronous ranking of the rank examples: its id is what getRequest's examples fetch. */
export const ASYNC_RANK_ID = "7f3c2a91-5b6e-4d08-9c4a-1e2f8b7d6a35";
export const ASYNC_PAIRWISE_ID = "2b8e4f17-9c3d-4a62-b5e1-0d7a6c9f3e84";
export const ASYNC_RANK_AUDIENCES_ID = "d5a0c8e3-6f19-4b72-a4d6-8e1b3f07c952";
const FAILED_ID = "b4d19e62-3a7f-4c85-8e2b-6f0c1a9d5e73";

const resultUrl = (id: string) => `/api/v1/requests/${id}`;

const rankAccepted: Status = {
  object: "request",
  request_id: ASYNC_RANK_ID,
  operation: "rank",
  status: "running",
  created_at: "2025-09-14T08:21:40.118Z",
  finished_at: null,
  progress: { done: 0, total: 2, unit: "assets" },
  result_url: resultUrl(ASYNC_RANK_ID),
  webhook: { url: EXAMPLE_WEBHOOK_URL, state: "pending", attempts: 0 },
  error: null,
};

const pairwiseAccepted: Status = {
  object: "request",
  request_id: ASYNC_PAIRWISE_ID,
  operation: "pairwise",
  status: "running",
  created_at: "2025-09-14T08:24:03.552Z",
  finished_at: null,
  progress: { done: 0, total: 1, unit: "pairs" },
  result_url: resultUrl(ASYNC_PAIRWISE_ID),
  webhook: null,
  error: null,
};

const audiencesRequest = rankAudiencesRequestExamples.asynchronous!.value;

const rankAudiencesAccepted: Status = {
  object: "request",
  request_id: ASYNC_RANK_AUDIENCES_ID,
  operation: "rank_audiences",
  status: "running",
  created_at: "2025-09-14T08:27:51.330Z",
  finished_at: null,
  // Each asset once per audience.
  progress: { done: 0, total: audiencesRequest.assets.length * audiencesRequest.audiences.length, unit: "assets" },
  result_url: resultUrl(ASYNC_RANK_AUDIENCES_ID),
  webhook: { url: EXAMPLE_WEBHOOK_URL, state: "pending", attempts: 0 },
  error: null,
};

export const rankAcceptedExamples: Examples<Status> = {
  accepted: {
    summary: "Accepted: the ranking runs on the server",
    description: "The answer to `async: true`. Fetch the result from `result_url` (also in the Location header), or wait for the webhook.",
    value: rankAccepted,
  },
};

export const pairwiseAcceptedExamples: Examples<Status> = {
  accepted: {
    summary: "Accepted: the panel runs on the server",
    description: "The answer to `async: true` without a webhook_url: fetch the result from `result_url`.",
    value: pairwiseAccepted,
  },
};

export const rankAudiencesAcceptedExamples: Examples<Status> = {
  accepted: {
    summary: "Accepted: the rankings run on the server",
    description: "The answer to `async: true`: progress counts each asset once per audience (3 creatives × 3 audiences). Fetch the result from `result_url`, or wait for the webhook.",
    value: rankAudiencesAccepted,
  },
};

export const requestRunningExamples: Examples<Status> = {
  running: {
    summary: "Still running: one of two creatives scored",
    description: "Ask again after Retry-After seconds.",
    value: { ...rankAccepted, progress: { done: 1, total: 2, unit: "assets" } },
  },
};

const rankResult = rankResponseExamples.ranked!.value;
const pairwiseResult = pairwiseResponseExamples.panelDone!.value;
const rankAudiencesResult = rankAudiencesResponseExamples.threeAudiences!.value;

const failed: NamedExample<Status> = {
  summary: "An asynchronous request that failed",
  description: "It ended without a result; what did not run was not charged. Its webhook, if any, was sent this body as `request.failed`.",
  value: {
    object: "request",
    request_id: FAILED_ID,
    operation: "rank",
    status: "failed",
    created_at: "2025-09-14T09:02:17.904Z",
    finished_at: "2025-09-14T09:04:18.311Z",
    progress: { done: 0, total: 2, unit: "assets" },
    result_url: resultUrl(FAILED_ID),
    webhook: { url: EXAMPLE_WEBHOOK_URL, state: "delivered", attempts: 1 },
    error: "No scoring model answered within the request's time limit. Nothing was charged.",
  },
};

type Result = z.output<typeof RankResponse> | z.output<typeof PairwiseResponse> | z.output<typeof RankAudiencesResponse> | Status;

export const requestResultExamples: Examples<Result> = {
  rankSucceeded: {
    summary: "A finished ranking: the body its POST answered",
    description: "Byte for byte what the ranking answered (or would have answered, for an asynchronous one), with X-Request-Id equal to request_id.",
    value: { ...rankResult, request_id: ASYNC_RANK_ID },
  },
  pairwiseSucceeded: {
    summary: "A finished pairwise comparison",
    value: { ...pairwiseResult, request_id: ASYNC_PAIRWISE_ID },
  },
  rankAudiencesSucceeded: {
    summary: "A finished ranking for several audiences",
    value: { ...rankAudiencesResult, request_id: ASYNC_RANK_AUDIENCES_ID },
  },
  failed,
};

type ErrorBody = z.output<typeof ErrorResponse>;

export const requestStillRunningExamples: Examples<ErrorBody> = {
  stillRunning: {
    summary: "The first request with this Idempotency-Key is still running",
    description: "The repeat waited for it as long as the operation may take. Retry with the same key after Retry-After seconds to get its response.",
    value: {
      error: `A request with this Idempotency-Key (request_id ${ASYNC_RANK_ID}) is still running. Retry with the same key in a few seconds to get its result, or fetch it with GET /api/v1/requests/${ASYNC_RANK_ID}; it is not run or billed twice.`,
      request_id: ASYNC_RANK_ID,
    },
  },
};

export const requestNotFoundExamples: Examples<ErrorBody> = {
  notFound: {
    summary: "Unknown id, or a request of another account",
    value: { error: 'No request with id "8c1f0a52-7d3e-4b6a-9f21-5e0c4d7a2b19" exists for this account. Results are kept for 30 days.' },
  },
};
