import type { HttpFailure } from "./http-failure.ts";

/**
 * Reading a Google API error body (google.rpc.Status as JSON: `{error: {code, message, status,
 * details[]}}`, https://cloud.google.com/apis/design/errors#http_mapping) for what the status
 * alone does not say: how long to wait (`google.rpc.RetryInfo.retryDelay`), whether a 429 is a
 * daily quota (`google.rpc.QuotaFailure` violations whose quotaId names a day), and whether a
 * 400 is a bad key (`google.rpc.ErrorInfo` reason API_KEY_INVALID). Detail types:
 * https://github.com/googleapis/googleapis/blob/master/google/rpc/error_details.proto
 * The Gemini API's own codes: https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export interface GoogleErrorInfo {
  /** The canonical status name, e.g. "RESOURCE_EXHAUSTED"; null when the body had none. */
  status: string | null;
  /** RetryInfo.retryDelay in ms, when given. */
  retryDelayMs?: number;
  /** QuotaFailure violations' quota ids, e.g. "GenerateRequestsPerDayPerProjectPerModel-FreeTier". */
  quotaIds: string[];
  /** ErrorInfo reasons, e.g. "API_KEY_INVALID". */
  reasons: string[];
  /** BadRequest field violations' field names, e.g. "generation_config.thinking_config.thinking_budget". */
  fields: string[];
  /** The provider's message: read for a parameter name, never shown (it can echo the prompt). */
  message: string;
}

const TYPE = "type.googleapis.com/google.rpc.";

/**
 * A protobuf Duration as JSON ("28s", "1.5s", "0.250s") in ms, or undefined when it is not one.
 *
 * @example
 * parseRetryDelay("28s"); // 28000
 */
export function parseRetryDelay(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.ceil(Number(match[1]) * 1000) : undefined;
}

const asRecord = (x: unknown): Record<string, unknown> | undefined => (x !== null && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined);

/**
 * The error part of a Google error body (a JSON string or a parsed value; Vertex sometimes
 * wraps it in a one-element array), or null when it is not one.
 */
export function parseGoogleError(body: unknown): GoogleErrorInfo | null {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (Array.isArray(value)) value = value[0];
  const error = asRecord(asRecord(value)?.error);
  if (!error) return null;
  const info: GoogleErrorInfo = { status: typeof error.status === "string" ? error.status : null, quotaIds: [], reasons: [], fields: [], message: typeof error.message === "string" ? error.message : "" };
  const details = Array.isArray(error.details) ? error.details : [];
  for (const raw of details) {
    const detail = asRecord(raw);
    const type = detail?.["@type"];
    if (!detail || typeof type !== "string" || !type.startsWith(TYPE)) continue;
    const kind = type.slice(TYPE.length);
    if (kind === "RetryInfo") {
      const delay = parseRetryDelay(detail.retryDelay);
      if (delay !== undefined) info.retryDelayMs = delay;
    } else if (kind === "QuotaFailure") {
      for (const v of Array.isArray(detail.violations) ? detail.violations : []) {
        const violation = asRecord(v);
        const id = violation?.quotaId ?? violation?.subject;
        if (typeof id === "string") info.quotaIds.push(id);
        // Some bodies name the limit only in the metric ("..._per_day").
        if (typeof violation?.quotaMetric === "string") info.quotaIds.push(violation.quotaMetric);
      }
    } else if (kind === "ErrorInfo") {
      if (typeof detail.reason === "string") info.reasons.push(detail.reason);
      const limit = asRecord(detail.metadata)?.quota_limit;
      if (typeof limit === "string") info.quotaIds.push(limit);
    } else if (kind === "BadRequest") {
      for (const v of Array.isArray(detail.fieldViolations) ? detail.fieldViolations : []) {
        const field = asRecord(v)?.field;
        if (typeof field === "string") info.fields.push(field);
      }
    }
  }
  return info;
}

/** A quota counted per day ("...PerDay...", "..._per_day"): it resets at midnight Pacific, not in seconds. */
export function isDailyQuota(quotaId: string): boolean {
  return /per[_ -]?day/i.test(quotaId);
}

// Generation parameters a 400 may name when a model does not take what we sent.
const PARAMETER = /thinking|temperature|max_?output_?tokens|generation_?config|top_?[pk]|response_?mime|media_?resolution/i;

// ErrorInfo reasons that mean the key itself is wrong (troubleshooting page; observed bodies).
const KEY_REASONS = new Set(["API_KEY_INVALID", "API_KEY_SERVICE_BLOCKED", "API_KEY_HTTP_REFERRER_BLOCKED", "API_KEY_IP_ADDRESS_BLOCKED", "ACCESS_TOKEN_EXPIRED", "ACCESS_TOKEN_TYPE_UNSUPPORTED", "SERVICE_DISABLED"]);

/**
 * What an error body means beyond its HTTP status, for `modelErrorFromHttpFailure`:
 * - 429 with a daily QuotaFailure: "quota_exhausted" (not retried; waiting seconds will not help);
 * - a bad key named in ErrorInfo (the API answers 400 INVALID_ARGUMENT for it): "credentials";
 * - 400 FAILED_PRECONDITION (e.g. the free tier is not offered in the caller's region, billing
 *   needed): "region_or_version";
 * - 400 INVALID_ARGUMENT naming a generation parameter: "unsupported_parameter".
 * Otherwise undefined: the status decides.
 */
export function meaningOfGoogleError(status: number, info: GoogleErrorInfo | null): HttpFailure["meaning"] {
  if (!info) return undefined;
  if (status === 429) return info.quotaIds.some(isDailyQuota) ? "quota_exhausted" : undefined;
  if (info.reasons.some((r) => KEY_REASONS.has(r))) return "credentials";
  if (status === 400 && info.status === "FAILED_PRECONDITION") return "region_or_version";
  if (status === 400 && (info.fields.some((f) => PARAMETER.test(f)) || PARAMETER.test(info.message))) return "unsupported_parameter";
  return undefined;
}
