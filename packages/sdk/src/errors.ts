import type { RequestStatus } from "./types.ts";

/** What every failed call carries, whatever went wrong. */
export interface ErrorDetails {
  /** The HTTP status; 0 when no response arrived. */
  status: number;
  /** The server's `X-Request-Id` (or null when no response arrived): quote it to support. */
  requestId: string | null;
  /** The parsed error body, when the server sent one. */
  body: unknown;
}

/** Base of every error the client throws; `message` is the server's sentence when it sent one. */
export class AdRankError extends Error {
  override name = "AdRankError";
  readonly status: number;
  readonly requestId: string | null;
  readonly body: unknown;

  constructor(message: string, details: ErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.status = details.status;
    this.requestId = details.requestId;
    this.body = details.body;
  }
}

/** 400: the body was not JSON or not sent as JSON. */
export class BadRequestError extends AdRankError {
  override name = "BadRequestError";
}

/** 401: the API key is missing, unknown or revoked. */
export class AuthenticationError extends AdRankError {
  override name = "AuthenticationError";
}

/** 402: the account's credits do not cover the batch. */
export class InsufficientCreditsError extends AdRankError {
  override name = "InsufficientCreditsError";
}

/**
 * 404: an audience_id or a request id (of `getRequest`, or an outcome's `request_id`) that
 * this account does not have. `field` names it when the body does (e.g. `outcomes[2].request_id`).
 */
export class NotFoundError extends AdRankError {
  override name = "NotFoundError";
  readonly field: string | null;
  constructor(message: string, details: ErrorDetails & { field?: string | null }) {
    super(message, details);
    this.field = details.field ?? null;
  }
}

/**
 * 409: a request with this Idempotency-Key is still running, and the server waited for it as
 * long as it could. `requestId` names that request; retried after `retryAfter` seconds.
 */
export class ConflictError extends AdRankError {
  override name = "ConflictError";
  readonly retryAfter: number;
  constructor(message: string, details: ErrorDetails & { retryAfter: number }) {
    super(message, details);
    this.retryAfter = details.retryAfter;
  }
}

/**
 * 422: a field of the request is invalid; `field` names it (e.g. `assets[3].url`, or
 * `Idempotency-Key` for a bad key or a key reused with another body).
 */
export class ValidationError extends AdRankError {
  override name = "ValidationError";
  readonly field: string | null;
  constructor(message: string, details: ErrorDetails & { field: string | null }) {
    super(message, details);
    this.field = details.field;
  }
}

/** 429: the key's window is full; retry after `retryAfter` seconds (at `resetAt`, epoch seconds). */
export class RateLimitError extends AdRankError {
  override name = "RateLimitError";
  readonly retryAfter: number;
  readonly resetAt: number | null;
  constructor(message: string, details: ErrorDetails & { retryAfter: number; resetAt: number | null }) {
    super(message, details);
    this.retryAfter = details.retryAfter;
    this.resetAt = details.resetAt;
  }
}

/** 500 and other 5xx: the server failed; retried with backoff before it reaches you. */
export class ServerError extends AdRankError {
  override name = "ServerError";
}

/** 503: no voter is available for a pairwise comparison right now. */
export class ServiceUnavailableError extends ServerError {
  override name = "ServiceUnavailableError";
}

/** No response: the connection failed or was cut. Retried like a 5xx. */
export class ConnectionError extends AdRankError {
  override name = "ConnectionError";
}

/**
 * No response within the client's time limit for one attempt; from `waitForResult`, the
 * request did not finish in time (it keeps running on the server).
 */
export class TimeoutError extends AdRankError {
  override name = "TimeoutError";
}

/** A 2xx whose body does not match the contract: a client/server version mismatch. */
export class UnexpectedResponseError extends AdRankError {
  override name = "UnexpectedResponseError";
}

/** An asynchronous request ended without a result; `request` is its final status, `message` its `error`. */
export class RequestFailedError extends AdRankError {
  override name = "RequestFailedError";
  readonly request: RequestStatus;
  constructor(message: string, details: ErrorDetails & { request: RequestStatus }) {
    super(message, details);
    this.request = details.request;
  }
}
