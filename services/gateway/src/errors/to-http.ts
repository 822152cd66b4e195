import {
  AudienceNotFoundError,
  BodyTooLargeError,
  BodyValidationError,
  ClientLeftError,
  formatBytes,
  InsufficientCreditsError,
  MalformedBodyError,
  IdempotentRequestInProgressError,
  MeteringUnavailableError,
  OutcomeRequestNotFoundError,
  RateLimitedError,
  RequestNotFoundError,
  TooManyCallsError,
  CalibrationUnavailableError,
  UnauthenticatedError,
  VotersUnavailableError,
} from "./api-errors.ts";
import { isDatabaseUnavailable } from "./database-unavailable.ts";

export interface HttpFailure {
  status: number;
  body: { error: string; field?: string; [extra: string]: unknown };
  headers: Record<string, string>;
  /** 5xx are ours to fix (error); the rest are the caller's (info). */
  severity: "info" | "error";
}

/** What every unexpected failure says: nothing about our internals, and how to report it. */
export const INTERNAL_ERROR = "internal error";

/**
 * The one mapping from failures to the spec's statuses and `{error, field?}` bodies. Every 5xx
 * body is generic and carries the request id for support; the real error is only logged.
 */
export function toHttpFailure(err: unknown, requestId: string, limits: { bodyLimitBytes: number }): HttpFailure {
  const caller = (status: number, body: HttpFailure["body"], headers: Record<string, string> = {}): HttpFailure => ({ status, body, headers, severity: "info" });

  if (err instanceof UnauthenticatedError) return caller(401, { error: err.message }, { "WWW-Authenticate": 'Bearer realm="adrank"' });
  if (err instanceof MalformedBodyError) return caller(400, { error: err.message });
  if (err instanceof BodyValidationError) return caller(422, err.field === undefined ? { error: err.message } : { error: err.message, field: err.field });
  if (err instanceof AudienceNotFoundError) return caller(404, { error: err.message, field: err.field });
  if (err instanceof RequestNotFoundError) return caller(404, { error: err.message });
  if (err instanceof OutcomeRequestNotFoundError) return caller(404, { error: err.message, field: err.field });
  if (err instanceof IdempotentRequestInProgressError) return caller(409, { error: err.message, request_id: err.requestId }, { "Retry-After": String(err.retryAfter) });
  if (err instanceof InsufficientCreditsError) return caller(402, { error: err.message });
  // Nobody is there to read it; 499 (nginx's "client closed request") keeps it apart from our own failures in logs and metrics.
  if (err instanceof ClientLeftError) return caller(499, { error: err.message });
  if (err instanceof RateLimitedError) {
    return caller(
      429,
      { error: err.message, retryAfter: err.retryAfter, resetAt: err.resetAt },
      { "Retry-After": String(err.retryAfter), "X-RateLimit-Remaining": String(err.remaining) },
    );
  }
  if (err instanceof TooManyCallsError) return caller(429, { error: err.message, retryAfter: err.retryAfter, resetAt: err.resetAt }, { "Retry-After": String(err.retryAfter) });
  if (err instanceof CalibrationUnavailableError) return { status: 503, body: { error: err.message }, headers: { "Retry-After": String(err.retryAfter) }, severity: "error" };
  // Refused before a byte of the body was read (what is left is discarded: request-context.ts).
  if (err instanceof BodyTooLargeError) return caller(413, { error: err.message });
  if (err instanceof VotersUnavailableError) return { status: 503, body: { error: err.message }, headers: { "Retry-After": "5" }, severity: "error" };
  if (err instanceof MeteringUnavailableError) return { status: 500, body: { error: err.message, request_id: requestId }, headers: {}, severity: "error" };

  // Nothing was charged (reservations come after the key and audience look-ups); say so, and
  // that a retry will do. 500, not 503: the spec keeps 503 for pairwise without voters.
  if (isDatabaseUnavailable(err)) {
    return { status: 500, body: { error: "The service cannot reach its database right now; nothing was charged. Retry in a few seconds.", request_id: requestId }, headers: {}, severity: "error" };
  }

  const fastifyFailure = fromFastifyError(err, limits.bodyLimitBytes);
  if (fastifyFailure) return caller(fastifyFailure.status, { error: fastifyFailure.message });

  return { status: 500, body: { error: INTERNAL_ERROR, request_id: requestId }, headers: {}, severity: "error" };
}

/**
 * Fastify's own refusals (body parsing, limits, bad URLs) in the spec's terms. DESIGN binds
 * a wrong content type to 400, not 415. Fastify's message text is not shown: it may quote
 * parser internals.
 */
function fromFastifyError(err: unknown, bodyLimitBytes: number): { status: number; message: string } | null {
  if (typeof err !== "object" || err === null) return null;
  const { code, statusCode } = err as { code?: unknown; statusCode?: unknown };
  switch (code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { status: 413, message: `The request body is larger than the limit of ${formatBytes(bodyLimitBytes)}.` };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 400, message: "The request body must be JSON sent with `Content-Type: application/json`." };
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, message: "The request body is empty; send a JSON object." };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return { status: 400, message: "The request body is not valid JSON." };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { status: 400, message: "The Content-Length header does not match the body." };
    default:
      break;
  }
  // The JSON parser reports syntax errors (and prototype-poisoning keys) as a 400 without a code.
  if (statusCode === 400 && (err instanceof SyntaxError || (err as { name?: unknown }).name === "SyntaxError")) {
    return { status: 400, message: "The request body is not valid JSON." };
  }
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, message: "The request could not be read." };
  }
  return null;
}
