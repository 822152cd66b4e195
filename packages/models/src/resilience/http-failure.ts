import { ModelError, type MisconfigurationCause } from "../model-error.ts";
import { misconfigurationFix, type ModelSettings } from "./model-settings.ts";

export interface ModelTarget {
  provider: string;
  model: string;
  /** Where the operator configures this model, so a misconfiguration can name the setting to change. */
  settings?: ModelSettings;
}

/** What an adapter could learn from a failed HTTP call, provider-neutral. */
export interface HttpFailure {
  /** Absent when no response arrived (connection refused, reset, DNS). */
  status?: number;
  retryAfterMs?: number;
  /** The provider's short error code, e.g. "insufficient_quota"; only shown when it looks like a code. */
  code?: string | null;
  /**
   * What the adapter read from the provider's error body, when that says more than the status:
   * - `content`: the provider refused this image or text (a policy or an undecodable image);
   * - a misconfiguration cause: the set-up is wrong (e.g. "quota_exhausted" for a 429 that
   *   waiting will not fix, "unsupported_parameter" for a 400 naming a parameter).
   */
  meaning?: "content" | MisconfigurationCause;
  cause: unknown;
}

const SAFE_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The cause a status implies when the body told us nothing more. */
function causeOfStatus(status: number): MisconfigurationCause {
  if (status === 401 || status === 403) return "credentials";
  if (status === 402) return "quota_exhausted";
  if (status === 404) return "unknown_model";
  return "invalid_request";
}

/**
 * Maps an HTTP outcome to our error kinds. Messages are ours, never the provider's body,
 * which can echo parts of the prompt. A 4xx is our set-up's fault (`misconfigured`) unless the
 * adapter read from the body that the provider refused the content itself.
 */
export function modelErrorFromHttpFailure(target: ModelTarget, failure: HttpFailure): ModelError {
  const { provider, model } = target;
  const { status, retryAfterMs, cause, meaning } = failure;
  const code = failure.code && SAFE_CODE.test(failure.code) ? failure.code : undefined;
  const detail = `${status === undefined ? "" : `HTTP ${status}`}${code ? `${status === undefined ? "" : ", "}${code}` : ""}`;
  const suffix = detail ? ` (${detail})` : "";
  const base = { provider, model, status, cause };
  const misconfigured = (why: MisconfigurationCause, message: string) =>
    new ModelError({ ...base, kind: "misconfigured", retryAfterMs, message, misconfiguration: { cause: why, fix: misconfigurationFix(why, target, detail) } });

  if (status === undefined) {
    return new ModelError({ ...base, kind: "unavailable", message: `${provider} could not be reached for model ${model}` });
  }
  if (meaning === "quota_exhausted") {
    // An exhausted quota is a billing state, not congestion: waiting a few seconds will not fix it.
    return misconfigured("quota_exhausted", `${provider}'s quota for model ${model} is exhausted${suffix}`);
  }
  if (status === 408) {
    return new ModelError({ ...base, kind: "timeout", retryAfterMs, message: `${provider} timed out on model ${model}${suffix}` });
  }
  if (status === 429) {
    return new ModelError({ ...base, kind: "rate_limited", retryAfterMs, message: `${provider} is rate limiting requests to model ${model}${suffix}` });
  }
  if (status === 409 || status >= 500) {
    return new ModelError({ ...base, kind: "unavailable", retryAfterMs, message: `${provider} is unavailable for model ${model}${suffix}` });
  }
  if (status >= 400) {
    if (meaning === "content") return new ModelError({ ...base, kind: "refused", message: `${provider} refused the content sent to model ${model}${suffix}`, ...(code ? { reason: code } : {}) });
    const why = meaning ?? causeOfStatus(status);
    const what =
      why === "credentials" ? `rejected our credentials for model ${model}` : why === "unknown_model" ? `does not know model ${model}` : `rejected the request to model ${model}`;
    return misconfigured(why, `${provider} ${what}${suffix}`);
  }
  return new ModelError({ ...base, kind: "bad_response", message: `${provider} answered model ${model} with an unexpected status${suffix}` });
}

export function badResponse(target: ModelTarget, what: string, cause?: unknown): ModelError {
  return new ModelError({ provider: target.provider, model: target.model, kind: "bad_response", message: `${target.provider} model ${target.model} ${what}`, cause });
}
