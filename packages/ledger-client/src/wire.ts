import { z } from "zod";
import type { RpcError } from "@adrank/messaging";
import type { Rejection } from "@adrank/ledger-domain";

// The ledger's request-reply contract. The service parses requests with these schemas and the
// client parses replies with them: one definition for both ends of the wire.

/** Account ids become a subject token (`ledger.acct.<id>`), so they are held to its alphabet. */
export const AccountId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "accountId must be 1-128 of A-Z a-z 0-9 _ -");
/** Ids that end up in a Nats-Msg-Id (`<id>:<command>`): printable, no spaces. */
const Token = z.string().regex(/^[\x21-\x7e]{1,128}$/, "must be 1-128 printable characters without spaces");
const Count = z.number().int().nonnegative();

export const UsageKindSchema = z.enum(["scoring", "pairwise"]);

export const ReserveRequest = z.object({
  accountId: AccountId,
  keyId: Token,
  reservationId: Token,
  kind: UsageKindSchema,
  units: z.number().int().positive(),
});
export type ReserveRequest = z.infer<typeof ReserveRequest>;

export const ReserveReply = z.object({
  reservationId: z.string(),
  /** Credits available after the reservation. */
  balance: z.number().int(),
  /** Units of this kind the key may still reserve in the current window. */
  windowRemaining: Count,
});
export type ReserveReply = z.infer<typeof ReserveReply>;

export const SettleRequest = z.object({ accountId: AccountId, reservationId: Token, unitsUsed: Count });
export type SettleRequest = z.infer<typeof SettleRequest>;

export const SettleReply = z.object({
  reservationId: z.string(),
  balance: z.number().int(),
  creditsUsed: Count,
  windowRemaining: Count,
  /** True when this settle repeated an earlier one with the same units (nothing changed). */
  alreadySettled: z.boolean().default(false),
});
export type SettleReply = z.infer<typeof SettleReply>;

export const GrantRequest = z.object({
  accountId: AccountId,
  grantId: Token,
  credits: z.number().int().positive(),
  reason: z.string().max(500).optional(),
});
export type GrantRequest = z.infer<typeof GrantRequest>;

export const BalanceRequest = z.object({ accountId: AccountId });
export type BalanceRequest = z.infer<typeof BalanceRequest>;

export const BalanceView = z.object({ available: z.number().int(), reserved: Count, granted: Count, used: Count });
export type BalanceView = z.infer<typeof BalanceView>;

/** Codes the ledger answers with besides the rejections: the request failed, not the command. */
export const FAILURE_CODES = { internal: "internal", unavailable: "unavailable" } as const;

const Status = z.enum(["open", "settled", "expired"]);
const details = {
  insufficient_credits: z.object({ available: z.number().int(), required: Count }),
  rate_limited: z.object({ kind: UsageKindSchema, limit: Count, retryAfter: z.number().int().min(1), resetAt: Count, remaining: Count }),
  already_settled: z.object({ reservationId: z.string(), unitsUsed: Count }),
  unknown_reservation: z.object({ reservationId: z.string() }),
  reservation_expired: z.object({ reservationId: z.string(), expiredAt: Count }),
  settle_exceeds_reservation: z.object({ reservationId: z.string(), reserved: Count, unitsUsed: Count }),
  duplicate_reservation: z.object({ reservationId: z.string(), status: Status }),
  reservation_closed: z.object({ reservationId: z.string(), status: z.enum(["settled", "expired"]) }),
  duplicate_grant: z.object({ grantId: z.string(), credits: Count }),
  bad_request: z.object({ reason: z.string() }),
} as const;
export type RejectionCode = keyof typeof details;

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
      return ["rate_limited", `rate limit of ${r.limit} ${r.kind} units per minute reached: retry in ${r.retryAfter} s`];
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
