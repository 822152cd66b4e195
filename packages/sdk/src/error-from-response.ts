import {
  AdRankError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  ValidationError,
} from "./errors.ts";

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 404: "Not Found", 409: "Conflict", 413: "Payload Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };

export const statusText = (status: number): string => STATUS_TEXT[status] ?? "HTTP error";

const stringField = (body: unknown, key: string): string | null => {
  const v = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[key] : undefined;
  return typeof v === "string" ? v : null;
};
const numberField = (body: unknown, key: string): number | null => {
  const v = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[key] : undefined;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
};

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The typed error of a non-2xx response; `body` is the parsed JSON body or the raw text. */
export function errorFromResponse(status: number, headers: Headers, body: unknown): AdRankError {
  // The header is on every response; a 5xx body repeats it, for proxies that drop headers.
  const requestId = headers.get("x-request-id") ?? stringField(body, "request_id");
  const message = stringField(body, "error") ?? `${status} ${statusText(status)}`;
  const details = { status, requestId, body };
  switch (status) {
    case 400:
      return new BadRequestError(message, details);
    case 401:
      return new AuthenticationError(message, details);
    case 402:
      return new InsufficientCreditsError(message, details);
    case 404:
      return new NotFoundError(message, { ...details, field: stringField(body, "field") });
    case 409:
      // The body names the request that holds the key: the one to fetch with getRequest.
      return new ConflictError(message, { ...details, requestId: stringField(body, "request_id") ?? requestId, retryAfter: parseRetryAfter(headers.get("retry-after")) ?? 5 });
    case 422:
      return new ValidationError(message, { ...details, field: stringField(body, "field") });
    case 429:
      return new RateLimitError(message, { ...details, retryAfter: parseRetryAfter(headers.get("retry-after")) ?? numberField(body, "retryAfter") ?? 1, resetAt: numberField(body, "resetAt") });
    case 503:
      return new ServiceUnavailableError(message, details);
    default:
      return status >= 500 ? new ServerError(message, details) : new AdRankError(message, details);
  }
}
