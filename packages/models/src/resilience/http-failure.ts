import { ModelError } from "../model-error.ts";

export interface ModelTarget {
  provider: string;
  model: string;
}

/** What an adapter could learn from a failed HTTP call, provider-neutral. */
export interface HttpFailure {
  /** Absent when no response arrived (connection refused, reset, DNS). */
  status?: number;
  retryAfterMs?: number;
  /** The provider's short error code, e.g. "insufficient_quota"; only shown when it looks like a code. */
  code?: string | null;
  cause: unknown;
}

const SAFE_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Maps an HTTP outcome to our error kinds. Messages are ours, never the provider's body,
 * which can echo parts of the prompt.
 */
export function modelErrorFromHttpFailure(target: ModelTarget, failure: HttpFailure): ModelError {
  const { provider, model } = target;
  const { status, retryAfterMs, cause } = failure;
  const code = failure.code && SAFE_CODE.test(failure.code) ? failure.code : undefined;
  const detail = `${status === undefined ? "" : `HTTP ${status}`}${code ? `${status === undefined ? "" : ", "}${code}` : ""}`;
  const suffix = detail ? ` (${detail})` : "";
  const base = { provider, model, status, cause };

  if (status === undefined) {
    return new ModelError({ ...base, kind: "unavailable", message: `${provider} could not be reached for model ${model}` });
  }
  if (status === 401 || status === 402 || status === 403) {
    return new ModelError({ ...base, kind: "auth", message: `${provider} rejected our credentials or account for model ${model}${suffix}` });
  }
  if (status === 408) {
    return new ModelError({ ...base, kind: "timeout", retryAfterMs, message: `${provider} timed out on model ${model}${suffix}` });
  }
  if (status === 429) {
    // An exhausted quota is a billing state, not congestion: waiting will not fix it.
    const retryable = code !== "insufficient_quota";
    return new ModelError({ ...base, kind: "rate_limited", retryable, retryAfterMs, message: `${provider} is rate limiting requests to model ${model}${suffix}` });
  }
  if (status === 409 || status >= 500) {
    return new ModelError({ ...base, kind: "unavailable", retryAfterMs, message: `${provider} is unavailable for model ${model}${suffix}` });
  }
  if (status >= 400) {
    return new ModelError({ ...base, kind: "bad_request", message: `${provider} rejected the request to model ${model}${suffix}` });
  }
  return new ModelError({ ...base, kind: "bad_response", message: `${provider} answered model ${model} with an unexpected status${suffix}` });
}

export function badResponse(target: ModelTarget, what: string, cause?: unknown): ModelError {
  return new ModelError({ ...target, kind: "bad_response", message: `${target.provider} model ${target.model} ${what}`, cause });
}
