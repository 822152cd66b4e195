import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { createHarness, eventually, type Harness } from "./harness.ts";

// A request may run for 120 s, longer than the 60 s window: its open reservation keeps
// counting until it is settled or expires. The replicas run on a clock the test moves, so
// "90 s later" takes no time.

describe("an open reservation counts in the rate window until it is settled or expires", () => {
  let h: Harness;
  let ledger: LedgerClient;
  let clock = Date.now();
  const now = () => clock;
  beforeAll(async () => {
    h = await createHarness();
    ledger = createLedgerClient(h.client, h.topo);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("refuses a reserve that does not fit beside a 90 s old open reservation, also after a replay, and frees the window when it settles", async () => {
    const first = await h.replica({ now, sweeper: false });
    const accountId = "acct-long-request";
    await ledger.grant({ accountId, grantId: "g1", credits: 500 });
    const long = randomUUID();
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId: long, kind: "scoring", units: 50 })).toMatchObject({ ok: true, value: { windowRemaining: 10 } });

    clock += 90_000;
    // Still counted; it may settle at any moment, so the estimate is 1 s from now.
    const refused = { ok: false, rejection: { type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 1, resetAt: Math.ceil((clock + 1_000) / 1_000), remaining: 10 } };
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId: randomUUID(), kind: "scoring", units: 20 })).toEqual(refused);
    const short = randomUUID();
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId: short, kind: "scoring", units: 10 })).toMatchObject({ ok: true, value: { windowRemaining: 0 } });

    // A fresh replica folds the account from the stream and decides the same.
    await first.stop();
    await h.replica({ now, sweeper: false });
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId: randomUUID(), kind: "scoring", units: 1 })).toMatchObject({
      ok: false,
      rejection: { type: "RateLimited", retryAfter: 1, remaining: 0 },
    });

    // Settled with 20 of 50 used: those count at the reservation time, 90 s ago, so they
    // have aged out; only the short reservation's 10 still count.
    expect(await ledger.settle({ accountId, reservationId: long, unitsUsed: 20 })).toMatchObject({ ok: true, value: { creditsUsed: 20, windowRemaining: 50 } });
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId: randomUUID(), kind: "scoring", units: 50 })).toMatchObject({ ok: true, value: { windowRemaining: 0 } });
  });

  it("frees the window at once when the sweeper expires an open reservation", async () => {
    await h.replica({ now, reservationTtlMs: 100_000, sweepIntervalMs: 100 });
    const accountId = "acct-abandoned-request";
    await ledger.grant({ accountId, grantId: "g1", credits: 500 });
    expect((await ledger.reserve({ accountId, keyId: "k2", reservationId: randomUUID(), kind: "pairwise", units: 60 })).ok).toBe(true);

    clock += 90_000;
    expect(await ledger.reserve({ accountId, keyId: "k2", reservationId: randomUUID(), kind: "pairwise", units: 1 })).toMatchObject({
      ok: false,
      rejection: { type: "RateLimited", kind: "pairwise", retryAfter: 1, remaining: 0 },
    });

    clock += 10_000;
    await eventually(async () => {
      const b = await ledger.balance({ accountId });
      return b.ok && b.value.reserved === 0;
    }, 10_000, "the sweeper to expire the reservation");
    expect(await ledger.reserve({ accountId, keyId: "k2", reservationId: randomUUID(), kind: "pairwise", units: 60 })).toMatchObject({ ok: true, value: { windowRemaining: 0 } });
  });
});
