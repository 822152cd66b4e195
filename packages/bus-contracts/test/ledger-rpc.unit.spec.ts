import { describe, expect, it } from "vitest";
import { REJECTION_DETAILS, ReserveRequest } from "../src/index.ts";

describe("ledger RPC: reserve", () => {
  const base = { accountId: "acct1", keyId: "k1", reservationId: "r1", kind: "scoring", units: 4 } as const;

  it("takes the image URLs the request fetches, absent for callers from before them", () => {
    expect(ReserveRequest.parse(base)).toEqual(base);
    expect(ReserveRequest.parse({ ...base, fetches: 20 })).toEqual({ ...base, fetches: 20 });
    for (const fetches of [0, 1_000]) expect(ReserveRequest.safeParse({ ...base, fetches }).success).toBe(true);
    for (const fetches of [-1, 1.5, 1_001, "20"]) expect(ReserveRequest.safeParse({ ...base, fetches }).success).toBe(false);
  });

  it("reads every rate window in a rate_limited answer, and none as the key's", () => {
    const details = { kind: "scoring", limit: 240, retryAfter: 36, resetAt: 1_795_000_036, remaining: 60 };
    for (const window of ["key", "account", "requests", "fetches"]) expect(REJECTION_DETAILS.rate_limited.parse({ ...details, window }).window).toBe(window);
    expect(REJECTION_DETAILS.rate_limited.parse(details).window).toBe("key");
    expect(REJECTION_DETAILS.rate_limited.safeParse({ ...details, window: "minute" }).success).toBe(false);
  });
});
