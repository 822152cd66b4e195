// Typed failures of the API edge. They carry what the caller needs to read, never a status:
// `to-http.ts` is the one place that maps them to the spec's statuses.
import type { UsageKind } from "@adrank/contracts";

/** Missing, malformed, unknown or revoked key; the message never says which (spec: 401). */
export class UnauthenticatedError extends Error {
  override name = "UnauthenticatedError";
  constructor() {
    super("Missing or invalid API key. Send `Authorization: Bearer agk_live_…`.");
  }
}

/** A body larger than the limit that applied to this request (413), refused before it was read. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/** 25 MiB, 16 KiB, or a count of bytes: how a size limit is named in a sentence. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The body is not JSON, or not sent as JSON (DESIGN: 400). */
export class MalformedBodyError extends Error {
  override name = "MalformedBodyError";
}

/** The JSON body breaks the schema (spec: 422); `field` names the offending path when known. */
export class BodyValidationError extends Error {
  override name = "BodyValidationError";
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.field = field;
  }
}

/** An audience_id that does not exist or belongs to another account (spec rule 11: 404). */
export class AudienceNotFoundError extends Error {
  override name = "AudienceNotFoundError";
  readonly audienceId: string;
  /** Where the id was sent: `audience_id` in rank and pairwise, `audiences[i].audience_id` side by side. */
  readonly field: string;
  constructor(audienceId: string, field = "audience_id") {
    super(`No saved audience with id ${JSON.stringify(audienceId)} exists for this account.`);
    this.audienceId = audienceId;
    this.field = field;
  }
}


const UNIT: Record<UsageKind, [string, string]> = { scoring: ["scoring evaluation", "scoring evaluations"], pairwise: ["pairwise panel", "pairwise panels"] };
const units = (n: number, kind: UsageKind) => `${n} ${UNIT[kind][n === 1 ? 0 : 1]}`;

/** The account cannot cover the request's maximum usage (spec rule 11: 402). */
export class InsufficientCreditsError extends Error {
  override name = "InsufficientCreditsError";
  readonly available: number;
  readonly required: number;
  constructor(available: number, required: number, kind: UsageKind = "scoring") {
    super(`Insufficient credits: this request can use up to ${units(required, kind)} and the account has ${available} credit${available === 1 ? "" : "s"}. Nothing was charged.`);
    this.available = available;
    this.required = required;
  }
}

/** Which ledger window refused: the key's units, the account's units (all keys together), or the account's requests or image fetches. */
export type RateWindowName = "key" | "account" | "requests" | "fetches";

/**
 * A rate window is full (spec: 429): the key's (60 scoring evaluations, or 60 panels, per
 * minute), its account's (all keys together), or the account's count of metered requests or
 * of image URLs they make us fetch, which count whatever the requests cost.
 */
export class RateLimitedError extends Error {
  override name = "RateLimitedError";
  /** Seconds to wait (DESIGN: integer seconds; also the Retry-After header). */
  readonly retryAfter: number;
  /** Unix epoch seconds when the window has room again. */
  readonly resetAt: number;
  readonly remaining: number;
  constructor(retryAfter: number, resetAt: number, remaining: number, kind: UsageKind = "scoring", limit = 60, window: RateWindowName = "key") {
    super(`Rate limit reached: ${windowSentence(window, limit, kind)} Retry after ${retryAfter} s.`);
    this.retryAfter = retryAfter;
    this.resetAt = resetAt;
    this.remaining = remaining;
  }
}

function windowSentence(window: RateWindowName, limit: number, kind: UsageKind): string {
  switch (window) {
    case "key":
      return `this key may use ${units(limit, kind)} per minute.`;
    case "account":
      return `the keys of this account may together use ${units(limit, kind)} per minute.`;
    case "requests":
      return `the keys of this account may together send ${limit} rank and pairwise requests per minute, whatever they cost (a request whose images all fail counts too).`;
    case "fetches":
      return `the keys of this account may together send ${limit} image URLs per minute for us to fetch, whatever the requests cost.`;
  }
}

/**
 * A plain request's client disconnected before its answer (nobody reads the 499; the sentence
 * is stored as the request's error, for GET /api/v1/requests/{id} and the console's history).
 * It pays for the work it set going: what succeeded and what was running when it left.
 */
export class ClientLeftError extends Error {
  override name = "ClientLeftError";
  readonly unitsBilled: number;
  constructor(kind: UsageKind, settlement: { units: number; creditsUsed: number; status: "confirmed" | "pending" }, options?: ErrorOptions) {
    const billed =
      settlement.units === 0
        ? "Nothing had been dispatched to the models yet, so nothing was charged."
        : `The work it had set going was billed: ${units(settlement.units, kind)} that had succeeded or been dispatched to the models when it left (${settlement.creditsUsed} credit${settlement.creditsUsed === 1 ? "" : "s"}${settlement.status === "pending" ? ", awaiting the ledger's confirmation" : ""}). The work still queued or running was cancelled.`;
    super(`The client disconnected before the answer was sent. ${billed}`, options);
    this.unitsBilled = settlement.units;
  }
}

/** The ledger did not answer the reservation: no work was done and nothing was charged (500). */
export class MeteringUnavailableError extends Error {
  override name = "MeteringUnavailableError";
  constructor(options?: ErrorOptions) {
    super("The credit ledger is unavailable, so the request was not processed and nothing was charged. Please retry shortly.", options);
  }
}

/** Pairwise only: no panel voter is running, so no vote could be cast (DESIGN: 503). Nothing was charged. */
export class VotersUnavailableError extends Error {
  override name = "VotersUnavailableError";
  constructor() {
    super("No panel voter is available right now, so the comparison was not run and nothing was charged. Please retry shortly.");
  }
}

/** An Idempotency-Key whose first request still runs after the repeat waited its whole limit (409). */
export class IdempotentRequestInProgressError extends Error {
  override name = "IdempotentRequestInProgressError";
  readonly requestId: string;
  readonly retryAfter: number;
  constructor(requestId: string, retryAfter: number) {
    super(`A request with this Idempotency-Key (request_id ${requestId}) is still running. Retry with the same key in a few seconds to get its result, or fetch it with GET /api/v1/requests/${requestId}; it is not run or billed twice.`);
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

/** An outcome's request_id that is unknown, another account's, or purged after its 30 days (404, like audience_id). */
export class OutcomeRequestNotFoundError extends Error {
  override name = "OutcomeRequestNotFoundError";
  /** The offending item's path, e.g. outcomes[2].request_id. */
  readonly field: string;
  constructor(requestId: string, field: string) {
    super(`No request with id ${JSON.stringify(requestId)} exists for this account (${field}). Outcomes are recorded against rankings of the last 30 days.`);
    this.field = field;
  }
}

/**
 * A free endpoint (outcomes, calibration) called more often than its window allows, or a
 * report asked for while the account's previous one still runs (429). The sentence says which.
 */
export class TooManyCallsError extends Error {
  override name = "TooManyCallsError";
  /** Seconds to wait (also the Retry-After header). */
  readonly retryAfter: number;
  /** Unix epoch seconds when a call may succeed again. */
  readonly resetAt: number;
  constructor(message: string, retryAfter: number, resetAt: number) {
    super(message);
    this.retryAfter = retryAfter;
    this.resetAt = resetAt;
  }
}

/** GET /api/v1/calibration could not read and compute its report within its time limit (503). Nothing changed. */
export class CalibrationUnavailableError extends Error {
  override name = "CalibrationUnavailableError";
  readonly retryAfter: number;
  constructor(timeoutMs: number, retryAfter: number, options?: ErrorOptions) {
    super(
      `The calibration report did not finish within its limit of ${Math.round(timeoutMs / 1000)} s: the server is busy with other reports, or this one is large. Nothing changed. Retry after ${retryAfter} s, or narrow the report with ?metric= or ?goal=.`,
      options,
    );
    this.retryAfter = retryAfter;
  }
}

/** GET /api/v1/requests/{id} of an unknown id, a malformed one, or another account's (404). */
export class RequestNotFoundError extends Error {
  override name = "RequestNotFoundError";
  constructor(requestId: string) {
    super(`No request with id ${JSON.stringify(requestId.slice(0, 100))} exists for this account. Results are kept for 30 days.`);
  }
}

/**
 * Too many failed key checks from one client address in its window (429, mapped as every
 * TooManyCallsError): refused before any key look-up, so guessing keys costs no query past the limit.
 */
export class TooManyFailedAuthenticationsError extends TooManyCallsError {
  override name = "TooManyFailedAuthenticationsError";
  constructor({ retryAfter, resetAt, limit, windowSeconds }: { retryAfter: number; resetAt: number; limit: number; windowSeconds: number }) {
    super(`Too many requests with an invalid API key came from this address: ${limit} per ${windowSeconds} s are answered. Retry after ${retryAfter} s with a valid key.`, retryAfter, resetAt);
  }
}
