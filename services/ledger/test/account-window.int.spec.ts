import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { decide } from "@adrank/ledger-domain";
import { LedgerEnv } from "../src/config.ts";
import { createHarness, type Harness } from "./harness.ts";

// The account window (all keys of an account together) as the service applies it: the
// configured limits reach the decision and the windowRemaining of the replies, a refusal
// crosses the wire naming the account's window, and a fresh replica decides the same.

describe("account window over real NATS", () => {
  let h: Harness;
  let ledger: LedgerClient;
  const accountRateLimits = { scoring: 100, pairwise: 60 };
  beforeAll(async () => {
    h = await createHarness();
    await h.replica({ accountRateLimits });
    ledger = createLedgerClient(h.client, h.topo);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("reads its limits from the environment, never below the key limit", () => {
    const base = { NATS_URL: "nats://127.0.0.1:4222", DATABASE_URL: "postgres://x@127.0.0.1/x" };
    expect(LedgerEnv.parse(base)).toMatchObject({ LEDGER_ACCOUNT_RATE_LIMIT_SCORING: 180, LEDGER_ACCOUNT_RATE_LIMIT_PAIRWISE: 180 });
    expect(LedgerEnv.parse({ ...base, LEDGER_ACCOUNT_RATE_LIMIT_SCORING: "300" }).LEDGER_ACCOUNT_RATE_LIMIT_SCORING).toBe(300);
    expect(LedgerEnv.safeParse({ ...base, LEDGER_ACCOUNT_RATE_LIMIT_PAIRWISE: "59" }).success).toBe(false);
  });

  it("refuses a key with room of its own once the account's keys together used the account's limit", async () => {
    const accountId = "acct-many-keys";
    await ledger.grant({ accountId, grantId: "g1", credits: 1_000 });
    const reserve = (keyId: string, units: number) => ledger.reserve({ accountId, keyId, reservationId: randomUUID(), kind: "scoring", units });
    expect(await reserve("k1", 60)).toMatchObject({ ok: true, value: { windowRemaining: 0 } });
    // k2's own window has 60, the account's 40 before this reservation: the reply says the smaller.
    expect(await reserve("k2", 30)).toMatchObject({ ok: true, value: { windowRemaining: 10 } });
    const refused = await reserve("k3", 20);
    expect(refused).toMatchObject({ ok: false, rejection: { type: "RateLimited", kind: "scoring", window: "account", limit: 100, remaining: 10 } });
    if (!refused.ok && refused.rejection.type === "RateLimited") expect(refused.rejection.retryAfter).toBeGreaterThanOrEqual(59);
    expect(await reserve("k3", 10)).toMatchObject({ ok: true, value: { windowRemaining: 0 } });
    // Pairwise has its own account window.
    expect((await ledger.reserve({ accountId, keyId: "k3", reservationId: randomUUID(), kind: "pairwise", units: 60 })).ok).toBe(true);

    // A fresh replica folds the same events and decides the same.
    const fresh = await h.replica({ accountRateLimits, rpc: false });
    const { state } = await fresh.store.read(accountId);
    expect(state.reserved).toBe(160);
    const next = { type: "ReserveUsage", reservationId: randomUUID(), keyId: "k4", kind: "scoring", units: 1 } as const;
    expect(decide(next, state, Date.now(), accountRateLimits)).toMatchObject({ rejection: { type: "RateLimited", window: "account", remaining: 0 } });
    expect(await reserve("k4", 1)).toMatchObject({ ok: false, rejection: { type: "RateLimited", window: "account", remaining: 0 } });
  });
});
