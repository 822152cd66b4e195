import { PairwiseResponse, RankAudiencesResponse, RankResponse, RequestStatus } from "@adrank/contracts";
import { UnexpectedResponseError } from "./errors.ts";
import { parseResponse } from "./parse-response.ts";
import type { PairwiseResponse as PairwiseResult, RankAudiencesResponse as RankAudiencesResult, RankResponse as RankResult, RequestStatus as Status } from "./types.ts";

/**
 * What GET /api/v1/requests/{id} says about a request: its result once it succeeded (the same
 * body the synchronous call would have answered), else its status.
 */
export type RequestOutcome =
  | { status: "succeeded"; operation: "rank"; result: RankResult }
  | { status: "succeeded"; operation: "pairwise"; result: PairwiseResult }
  | { status: "succeeded"; operation: "rank_audiences"; result: RankAudiencesResult }
  | { status: "running"; request: Status }
  | { status: "failed"; request: Status };

const has = (body: unknown, key: string) => typeof body === "object" && body !== null && key in body;

/**
 * The outcome a 2xx of GET /api/v1/requests/{id} carries. A status body says `object:
 * "request"`; a result is told apart by its shape (a rank result has `ranked`, a pairwise one
 * `pairs`, a rankAcrossAudiences one `by_audience`), since the server answers it byte for byte
 * as the POST did.
 */
export function requestOutcomeOf(httpStatus: number, requestId: string | null, body: unknown): RequestOutcome {
  if (has(body, "object")) {
    const request = parseResponse(RequestStatus, httpStatus, requestId, body);
    if (request.status === "running" || request.status === "failed") return { status: request.status, request };
    throw new UnexpectedResponseError(`The ${httpStatus} response is the status of a succeeded request instead of its result.`, { status: httpStatus, requestId, body });
  }
  if (has(body, "ranked")) return { status: "succeeded", operation: "rank", result: parseResponse(RankResponse, httpStatus, requestId, body) };
  if (has(body, "pairs")) return { status: "succeeded", operation: "pairwise", result: parseResponse(PairwiseResponse, httpStatus, requestId, body) };
  if (has(body, "by_audience")) return { status: "succeeded", operation: "rank_audiences", result: parseResponse(RankAudiencesResponse, httpStatus, requestId, body) };
  throw new UnexpectedResponseError(`The ${httpStatus} response is neither a request status nor a rank, pairwise or rank-audiences result.`, { status: httpStatus, requestId, body });
}
