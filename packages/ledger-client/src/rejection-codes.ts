import type { RateLimited, Rejection } from "@adrank/ledger-domain";
import { REJECTION_DETAILS as details, type RejectionCode, type RpcError } from "@adrank/bus-contracts";

// Rejections of the ledger domain to and from the RpcError the ledger answers with.

/** The envelope error of a rejection; `extra` adds context (e.g. the balance) to the details. */
export function rejectionToRpcError(r: Rejection, extra: Record<string, unknown> = {}): RpcError {
  const { type: _type, ...fields } = r;
  const [code, message] = describe(r);
  return { code, message, details: { ...fields, ...extra } };
}

function describe(r: Rejection): [RejectionCode, string] {
  switch (r.type) {
    case "InsufficientCredits":
      return ["insufficient_credits", `insufficient credits: ${r.required} required, ${r.available} available`];
    case "RateLimited":
      return ["rate_limited", `${rateLimitReached(r)}: retry in ${r.retryAfter} s`];
    case "AlreadySettled":
      return ["already_settled", `reservation ${r.reservationId} was already settled with ${r.unitsUsed} units`];
    case "UnknownReservation":
      return ["unknown_reservation", `no reservation ${r.reservationId}`];
    case "ReservationAlreadyExpired":
      return ["reservation_expired", `reservation ${r.reservationId} expired and its credits were released`];
    case "SettleExceedsReservation":
      return ["settle_exceeds_reservation", `cannot settle ${r.unitsUsed} units of a reservation of ${r.reserved}`];
    case "DuplicateReservation":
      return ["duplicate_reservation", `reservation ${r.reservationId} exists already (${r.status})`];
    case "ReservationClosed":
      return ["reservation_closed", `reservation ${r.reservationId} is already ${r.status}`];
    case "DuplicateGrant":
      return ["duplicate_grant", `grant ${r.grantId} was already applied (${r.credits} credits)`];
    case "InvalidCommand":
      return ["bad_request", r.reason];
    default: {
      const unknown: never = r;
      throw new Error(`unknown rejection ${JSON.stringify(unknown)}`);
    }
  }
}

function rateLimitReached(r: RateLimited): string {
  switch (r.window) {
    case "key":
      return `rate limit of ${r.limit} ${r.kind} units per minute per key reached`;
    case "account":
      return `rate limit of ${r.limit} ${r.kind} units per minute for the account's keys together reached`;
    case "requests":
      return `request limit of ${r.limit} requests per minute for the account reached`;
    case "fetches":
      return `image fetch limit of ${r.limit} image URLs per minute for the account reached`;
    default: {
      const unknown: never = r.window;
      throw new Error(`unknown rate window ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The rejection carried by an envelope error, or null when the code is not a rejection
 * (internal, unavailable, or a code this client does not know). Throws when the details of
 * a known code are malformed.
 */
export function rpcErrorToRejection(e: RpcError): Rejection | null {
  const d = e.details ?? {};
  switch (e.code) {
    case "insufficient_credits":
      return { type: "InsufficientCredits", ...details.insufficient_credits.parse(d) };
    case "rate_limited":
      return { type: "RateLimited", ...details.rate_limited.parse(d) };
    case "already_settled":
      return { type: "AlreadySettled", ...details.already_settled.parse(d) };
    case "unknown_reservation":
      return { type: "UnknownReservation", ...details.unknown_reservation.parse(d) };
    case "reservation_expired":
      return { type: "ReservationAlreadyExpired", ...details.reservation_expired.parse(d) };
    case "settle_exceeds_reservation":
      return { type: "SettleExceedsReservation", ...details.settle_exceeds_reservation.parse(d) };
    case "duplicate_reservation":
      return { type: "DuplicateReservation", ...details.duplicate_reservation.parse(d) };
    case "reservation_closed":
      return { type: "ReservationClosed", ...details.reservation_closed.parse(d) };
    case "duplicate_grant":
      return { type: "DuplicateGrant", ...details.duplicate_grant.parse(d) };
    case "bad_request":
      return { type: "InvalidCommand", reason: details.bad_request.safeParse(d).data?.reason ?? e.message };
    default:
      return null;
  }
}
