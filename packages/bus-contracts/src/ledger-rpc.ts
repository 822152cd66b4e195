import { z } from "zod";
import { UsageKind } from "@adrank/contracts";
import { ModelUsage } from "./model-usage.ts";

// The ledger's request-reply contract. The service parses requests with these schemas and the
// client parses replies with them: one definition for both ends of the wire. Rejections travel
// as an RpcError whose `details` match REJECTION_DETAILS[code]; ledger-client maps them to the
// ledger domain's typed rejections.

/** Account ids become a subject token (`ledger.acct.<id>`), so they are held to its alphabet. */
export const AccountId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "accountId must be 1-128 of A-Z a-z 0-9 _ -");
/** Ids that end up in a Nats-Msg-Id (`<id>:<command>`): printable, no spaces. */
const Token = z.string().regex(/^[\x21-\x7e]{1,128}$/, "must be 1-128 printable characters without spaces");
const Count = z.number().int().nonnegative();


export const ReserveRequest = z.object({
  accountId: AccountId,
  keyId: Token,
  reservationId: Token,
  kind: UsageKind,
  units: z.number().int().positive(),
  /**
   * Image URLs the request makes the gateway fetch: counted in the account's fetch window at
   * reservation time and never given back. Absent is 0 (callers from before it existed).
   */
  fetches: z.number().int().min(0).max(1000).optional(),
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

/** Entries one settle may report; a request's usage lists each model once (mergeModelUsage), far fewer than this. */
export const MAX_SETTLE_MODEL_USAGE = 16;

export const SettleRequest = z.object({
  accountId: AccountId,
  reservationId: Token,
  unitsUsed: Count,
  /**
   * Calls and tokens the request spent per model, recorded on the settlement for cost
   * accounting (never charged). A repeated settle keeps the first one's usage.
   */
  modelUsage: z.array(ModelUsage).max(MAX_SETTLE_MODEL_USAGE).optional(),
});
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
/** The details each rejection code carries. */
export const REJECTION_DETAILS = {
  insufficient_credits: z.object({ available: z.number().int(), required: Count }),
  // `window`: which window refused (the key's or account's units, the account's requests or its image fetches; `limit` is in
  // that window's measure); a ledger from before the account window sent none, and only had the key's.
  rate_limited: z.object({
    kind: UsageKind,
    window: z.enum(["key", "account", "requests", "fetches"]).default("key"),
    limit: Count,
    retryAfter: z.number().int().min(1),
    resetAt: Count,
    remaining: Count,
  }),
  already_settled: z.object({ reservationId: z.string(), unitsUsed: Count }),
  unknown_reservation: z.object({ reservationId: z.string() }),
  reservation_expired: z.object({ reservationId: z.string(), expiredAt: Count }),
  settle_exceeds_reservation: z.object({ reservationId: z.string(), reserved: Count, unitsUsed: Count }),
  duplicate_reservation: z.object({ reservationId: z.string(), status: Status }),
  reservation_closed: z.object({ reservationId: z.string(), status: z.enum(["settled", "expired"]) }),
  duplicate_grant: z.object({ grantId: z.string(), credits: Count }),
  bad_request: z.object({ reason: z.string() }),
} as const;
export type RejectionCode = keyof typeof REJECTION_DETAILS;
