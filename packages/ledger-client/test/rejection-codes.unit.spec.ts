import { describe, expect, it } from "vitest";
import type { Rejection } from "@adrank/ledger-domain";
import { rejectionToRpcError, rpcErrorToRejection } from "../src/index.ts";

const every: Rejection[] = [
  { type: "InsufficientCredits", available: 3, required: 4 },
  { type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 12, resetAt: 1_795_000_000, remaining: 0 },
  { type: "AlreadySettled", reservationId: "r1", unitsUsed: 2 },
  { type: "UnknownReservation", reservationId: "r1" },
  { type: "ReservationAlreadyExpired", reservationId: "r1", expiredAt: 1_795_000_000_000 },
  { type: "SettleExceedsReservation", reservationId: "r1", reserved: 2, unitsUsed: 3 },
  { type: "DuplicateReservation", reservationId: "r1", status: "settled" },
  { type: "ReservationClosed", reservationId: "r1", status: "expired" },
  { type: "DuplicateGrant", grantId: "g1", credits: 10 },
  { type: "InvalidCommand", reason: "units must be an integer from 1 to 60" },
];

describe("rejections on the wire", () => {
  it.each(every.map((r) => [r.type, r] as const))("%s survives the hop unchanged", (_type, rejection) => {
    const wire = JSON.parse(JSON.stringify(rejectionToRpcError(rejection)));
    expect(rpcErrorToRejection(wire)).toEqual(rejection);
  });

  it("uses the codes the gateway maps to statuses", () => {
    expect(every.map((r) => rejectionToRpcError(r).code)).toEqual([
      "insufficient_credits",
      "rate_limited",
      "already_settled",
      "unknown_reservation",
      "reservation_expired",
      "settle_exceeds_reservation",
      "duplicate_reservation",
      "reservation_closed",
      "duplicate_grant",
      "bad_request",
    ]);
  });

  it("carries retryAfter, resetAt and remaining in the rate_limited details", () => {
    expect(rejectionToRpcError(every[1]!).details).toMatchObject({ retryAfter: 12, resetAt: 1_795_000_000, remaining: 0 });
  });

  it("names the account window when it refused, and reads a ledger's details from before it as the key's", () => {
    const account = { type: "RateLimited", kind: "pairwise", window: "account", limit: 180, retryAfter: 3, resetAt: 1_795_000_003, remaining: 0 } as const;
    const wire = rejectionToRpcError(account);
    expect(wire.message).toBe("rate limit of 180 pairwise units per minute for the account's keys together reached: retry in 3 s");
    expect(rpcErrorToRejection(JSON.parse(JSON.stringify(wire)))).toEqual(account);
    const older = { code: "rate_limited", message: "x", details: { kind: "scoring", limit: 60, retryAfter: 12, resetAt: 1_795_000_000, remaining: 0 } } as const;
    expect(rpcErrorToRejection(older)).toEqual(every[1]);
  });

  it("names the account's request and fetch windows, in their own measures", () => {
    const requests = { type: "RateLimited", kind: "scoring", window: "requests", limit: 240, retryAfter: 36, resetAt: 1_795_000_036, remaining: 60 } as const;
    const fetches = { type: "RateLimited", kind: "pairwise", window: "fetches", limit: 600, retryAfter: 30, resetAt: 1_795_000_030, remaining: 60 } as const;
    expect(rejectionToRpcError(requests).message).toBe("request limit of 240 requests per minute for the account reached: retry in 36 s");
    expect(rejectionToRpcError(fetches).message).toBe("image fetch limit of 600 image URLs per minute for the account reached: retry in 30 s");
    for (const r of [requests, fetches]) expect(rpcErrorToRejection(JSON.parse(JSON.stringify(rejectionToRpcError(r))))).toEqual(r);
  });

  it("is not a rejection when the ledger failed, and refuses malformed details", () => {
    expect(rpcErrorToRejection({ code: "internal", message: "boom" })).toBeNull();
    expect(rpcErrorToRejection({ code: "unavailable", message: "busy" })).toBeNull();
    expect(() => rpcErrorToRejection({ code: "rate_limited", message: "x", details: { retryAfter: "soon" } })).toThrow();
  });
});
