import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { decide } from "@adrank/ledger-domain";
import { LedgerEnv } from "../src/config.ts";
import { createHarness, type Harness } from "./harness.ts";

// The account's request and fetch windows as the service applies them: `fetches` crosses the
// wire into the command and onto the stream, a settle for 0 gives nothing back, a refusal
// names its window, and a fresh replica folds the same windows from the stream.

describe("request and fetch windows over real NATS", () => {
  let h: Harness;
  let ledger: LedgerClient;
  const accountRequestLimits = { requests: 4, fetches: 40 };
  beforeAll(async () => {
    h = await createHarness();
    await h.replica({ accountRequestLimits });
    ledger = createLedgerClient(h.client, h.topo);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("reads its limits from the environment, the fetch limit never below one request's URLs", () => {
    const base = { NATS_URL: "nats://127.0.0.1:4222", DATABASE_URL: "postgres://x@127.0.0.1/x" };
    expect(LedgerEnv.parse(base)).toMatchObject({ LEDGER_ACCOUNT_REQUEST_LIMIT: 240, LEDGER_ACCOUNT_FETCH_LIMIT: 600 });
    expect(LedgerEnv.parse({ ...base, LEDGER_ACCOUNT_REQUEST_LIMIT: "1000000", LEDGER_ACCOUNT_FETCH_LIMIT: "1000000" })).toMatchObject({
      LEDGER_ACCOUNT_REQUEST_LIMIT: 1_000_000,
      LEDGER_ACCOUNT_FETCH_LIMIT: 1_000_000,
    });
    expect(LedgerEnv.safeParse({ ...base, LEDGER_ACCOUNT_REQUEST_LIMIT: "0" }).success).toBe(false);
    expect(LedgerEnv.safeParse({ ...base, LEDGER_ACCOUNT_FETCH_LIMIT: "19" }).success).toBe(false);
  });

  it("counts requests settled for nothing and the URLs they fetch, and refuses past either limit", async () => {
    const accountId = "acct-free-requests";
    await ledger.grant({ accountId, grantId: "g1", credits: 1_000 });
    const reserve = (keyId: string, fetches?: number) =>
      ledger.reserve({ accountId, keyId, reservationId: randomUUID(), kind: "scoring", units: 5, ...(fetches === undefined ? {} : { fetches }) });
    // Three requests of 20, 20 and no URLs, each settled for nothing (every asset failed intake).
    for (const [keyId, fetches] of [["k1", 20], ["k2", 20], ["k1", undefined]] as const) {
      const r = await reserve(keyId, fetches);
      if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.rejection)}`);
      expect(await ledger.settle({ accountId, reservationId: r.value.reservationId, unitsUsed: 0 })).toMatchObject({ ok: true });
    }
    // The fetch window holds 40: one URL more is refused, a request of none still fits the request window.
    const fetchRefused = await reserve("k3", 1);
    expect(fetchRefused).toMatchObject({ ok: false, rejection: { type: "RateLimited", kind: "scoring", window: "fetches", limit: 40, remaining: 60 } });
    if (!fetchRefused.ok && fetchRefused.rejection.type === "RateLimited") expect(fetchRefused.rejection.retryAfter).toBeGreaterThanOrEqual(59);
    expect(await reserve("k3", 0)).toMatchObject({ ok: true });
    const refused = await reserve("k4");
    expect(refused).toMatchObject({ ok: false, rejection: { type: "RateLimited", window: "requests", limit: 4 } });
    // More URLs than the window holds is malformed, not a 429.
    expect(await reserve("k4", 41)).toMatchObject({ ok: false, rejection: { type: "InvalidCommand" } });

    // The stream holds the fetches; a fresh replica folds the same windows and decides the same.
    const { events } = await h.fold(accountId);
    expect(events.filter((e) => e.type === "UsageReserved").map((e) => e.fetches)).toEqual([20, 20, undefined, undefined]);
    const fresh = await h.replica({ accountRequestLimits, rpc: false });
    const { state } = await fresh.store.read(accountId);
    expect(state.requests.map((e) => e.fetches)).toEqual([20, 20, 0, 0]);
    const next = { type: "ReserveUsage", reservationId: randomUUID(), keyId: "k5", kind: "scoring", units: 1 } as const;
    expect(decide(next, state, Date.now(), undefined, accountRequestLimits)).toMatchObject({ rejection: { type: "RateLimited", window: "requests" } });
  });
});
