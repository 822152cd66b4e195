import { ModelError, isModelError } from "../model-error.ts";
import { fullJitterDelayMs } from "./backoff.ts";
import { createConcurrencyLimiter, type ConcurrencyLimiter } from "./concurrency-limiter.ts";
import type { ModelTarget } from "./http-failure.ts";
import { realSleep, type Sleep } from "./sleep.ts";

export interface CallPolicyOptions {
  /** Per attempt, from the moment a concurrency slot is held. Default 60 s. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Backoff window of the first retry; doubles per retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Largest backoff window. Default 20 s. */
  maxDelayMs?: number;
  /** A provider asking for a longer wait than this gets no retry: the caller learns `retryAfterMs` instead. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Shared by every model of one provider; built from `concurrency` when absent. */
  limiter?: ConcurrencyLimiter;
  /** In-flight calls allowed when no limiter is given. Default 8. */
  concurrency?: number;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  /** Observes each retry decision, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  provider: string;
  model: string;
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  error: ModelError;
}

/** What bounds one call beyond the policy's own settings. */
export interface CallLimits {
  /**
   * Epoch ms by which the caller needs an answer (the job's deadline). A retry whose wait would
   * end after it is not made: the call fails at once, so the time is not spent waiting for nothing.
   */
  deadlineAt?: number | undefined;
}

/** One attempt of a provider call: must pass `signal` to its HTTP request. */
export type Attempt<T> = (signal: AbortSignal) => Promise<T>;

export interface CallPolicy {
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly limiter: ConcurrencyLimiter;
  readonly now: () => number;
  /**
   * Runs `attempt` under the limiter with a per-attempt timeout, retrying what `classify`
   * calls retryable. Always rejects with a ModelError.
   *
   * @example
   * const text = await policy.run({ provider: "openai", model }, req.signal, (signal) => sdkCall(signal), toModelError);
   */
  run<T>(target: ModelTarget, signal: AbortSignal | undefined, attempt: Attempt<T>, classify: (err: unknown) => ModelError, limits?: CallLimits): Promise<T>;
}

/**
 * The single retry layer for every provider: SDK retries are turned off so that timeouts,
 * backoff, Retry-After and cancellation behave the same whichever SDK is underneath.
 */
export function createCallPolicy(options: CallPolicyOptions = {}): CallPolicy {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 20_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const limiter = options.limiter ?? createConcurrencyLimiter(options.concurrency ?? 8);
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  const aborted = (target: ModelTarget, cause: unknown) =>
    new ModelError({ ...target, kind: "aborted", message: `call to ${target.provider} model ${target.model} was cancelled`, cause });

  async function attemptOnce<T>(target: ModelTarget, signal: AbortSignal | undefined, attempt: Attempt<T>, classify: (err: unknown) => ModelError): Promise<{ ok: true; value: T } | { ok: false; error: ModelError }> {
    let release: () => void;
    try {
      release = await limiter.acquire(signal);
    } catch (err) {
      throw aborted(target, err);
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("attempt timed out"));
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      if (signal?.aborted) throw signal.reason;
      return { ok: true, value: await attempt(controller.signal) };
    } catch (err) {
      if (signal?.aborted) throw aborted(target, err);
      if (timedOut) {
        return { ok: false, error: new ModelError({ ...target, kind: "timeout", message: `${target.provider} model ${target.model} did not answer within ${timeoutMs} ms`, cause: err }) };
      }
      return { ok: false, error: isModelError(err) ? err : classify(err) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCallerAbort);
      release();
    }
  }

  return {
    timeoutMs,
    maxRetries,
    limiter,
    now,
    async run(target, signal, attempt, classify, limits = {}) {
      for (let retry = 0; ; retry++) {
        if (signal?.aborted) throw aborted(target, signal.reason);
        const outcome = await attemptOnce(target, signal, attempt, classify);
        if (outcome.ok) return outcome.value;
        const error = outcome.error;
        const tooLong = error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterMs;
        if (!error.retryable || retry >= maxRetries || tooLong) throw retry === 0 ? error : afterAttempts(error, retry + 1);
        const delayMs = error.retryAfterMs ?? fullJitterDelayMs(retry, baseDelayMs, maxDelayMs, random);
        if (limits.deadlineAt !== undefined && now() + delayMs >= limits.deadlineAt) throw afterAttempts(error, retry + 1, `the next try (in ${Math.ceil(delayMs / 1000)} s) would come after the request's deadline`);
        options.onRetry?.({ ...target, retry: retry + 1, delayMs, error });
        try {
          await sleep(delayMs, signal);
        } catch (err) {
          throw aborted(target, err);
        }
      }
    },
  };
}

function afterAttempts(error: ModelError, attempts: number, why?: string): ModelError {
  return new ModelError({
    kind: error.kind,
    provider: error.provider,
    model: error.model,
    retryable: error.retryable,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    reason: error.reason,
    misconfiguration: error.misconfiguration,
    usage: error.usage,
    message: `${error.message}; gave up after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}${why ? `: ${why}` : ""}`,
    cause: error.cause,
  });
}
