import type { AdRankError } from "./errors.ts";
import { ConflictError, ConnectionError, RateLimitError, ServerError, TimeoutError } from "./errors.ts";

export interface RetryPolicy {
  /** Retries after the first attempt (0 turns retrying off). */
  maxRetries: number;
  /** First backoff for 5xx and connection failures; doubled each time, with jitter. */
  baseDelayMs: number;
  /** No single wait is longer than this, Retry-After included: a longer one is not waited for. */
  maxDelayMs: number;
  /**
   * The caller's budget for the whole call, attempts and waits included. A retry whose wait
   * would end past it is not made; each attempt's time limit shrinks to what is left.
   */
  maxElapsedMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 60_000, maxElapsedMs: Number.POSITIVE_INFINITY };

/**
 * How long to wait before retrying after `error` on attempt `attempt` (0-based), `elapsedMs`
 * into the call, or null to give up. 429 and 409 (the same Idempotency-Key still running)
 * wait exactly what the server said; 5xx and lost connections back off exponentially with
 * "equal jitter" (between half and all of the doubled delay, so waits grow yet clients do
 * not retry in step); every other 4xx is the caller's to fix and is never retried.
 *
 * @example
 * retryDelayMs(new RateLimitError("Slow down.", { status: 429, requestId: null, body: null, retryAfter: 3, resetAt: null }), 0, 0, DEFAULT_RETRY_POLICY); // 3000
 */
export function retryDelayMs(error: AdRankError, attempt: number, elapsedMs: number, policy: RetryPolicy, random: () => number = Math.random): number | null {
  if (attempt >= policy.maxRetries) return null;
  let delay: number | null = null;
  if (error instanceof RateLimitError || error instanceof ConflictError) {
    const ms = error.retryAfter * 1000;
    delay = ms <= policy.maxDelayMs ? ms : null;
  } else if (error instanceof ServerError || error instanceof ConnectionError || error instanceof TimeoutError) {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
    delay = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  }
  // A retry that could only start after the budget ran out is no retry: give the error now.
  if (delay === null || elapsedMs + delay >= policy.maxElapsedMs) return null;
  return delay;
}
