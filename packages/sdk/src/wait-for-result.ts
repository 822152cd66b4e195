import { RequestFailedError, TimeoutError } from "./errors.ts";
import type { RequestOutcome } from "./request-outcome.ts";
import { sleep } from "./sleep.ts";
import type { PairwiseResponse, RankAudiencesResponse, RankResponse, RequestStatus } from "./types.ts";

export interface WaitOptions {
  /** Time between two looks at the request; a longer `Retry-After` from the server wins. Default 1000. */
  pollIntervalMs?: number;
  /** How long to wait in all before giving up with a `TimeoutError` (the request keeps running). Default 10 minutes. */
  timeoutMs?: number;
  /** Aborting rejects with the signal's reason, also between two looks. */
  signal?: AbortSignal;
  /** Called with the request's status each time it is seen still running (its `progress` grows). */
  onProgress?: (status: RequestStatus) => void;
}

/** What a finished asynchronous request answers: a rank result has `ranked`, a pairwise one `pairs`, a rankAcrossAudiences one `by_audience`. */
export type RequestResult = RankResponse | PairwiseResponse | RankAudiencesResponse;

/** The one call the wait needs: a look at the request, with the server's `Retry-After` (seconds). */
export type LookAtRequest = (requestId: string, options: { signal: AbortSignal }) => Promise<{ data: RequestOutcome; retryAfter: number | null }>;

export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;

/**
 * Looks at the request until it finishes: resolves its result, rejects with a
 * `RequestFailedError` when it failed, or with a `TimeoutError` when `timeoutMs` ran out first.
 * Each look is an ordinary call, so lost connections and 5xx are retried by the client's policy.
 */
export async function waitForResult(lookAt: LookAtRequest, requestId: string, options: WaitOptions = {}): Promise<RequestResult> {
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  let last: RequestStatus | null = null;
  // The deadline aborts whatever is under way (a look, its retries, a wait) with its own error.
  const deadline = new AbortController();
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        const message = `Request ${requestId} did not finish within ${timeoutMs} ms. It keeps running on the server: fetch its result later with getRequest("${requestId}").`;
        deadline.abort(new TimeoutError(message, { status: 0, requestId, body: last }));
      }, timeoutMs)
    : undefined;
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  try {
    for (;;) {
      const { data, retryAfter } = await lookAt(requestId, { signal });
      if (data.status === "succeeded") return data.result;
      if (data.status === "failed") {
        throw new RequestFailedError(data.request.error ?? `Request ${requestId} failed.`, { status: 200, requestId: data.request.request_id, body: data.request, request: data.request });
      }
      last = data.request;
      options.onProgress?.(data.request);
      await sleep(Math.max(pollIntervalMs, (retryAfter ?? 0) * 1000), signal);
    }
  } finally {
    clearTimeout(timer);
  }
}
