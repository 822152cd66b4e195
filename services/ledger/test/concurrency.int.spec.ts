import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { balanceOf, windowRemaining } from "@adrank/ledger-domain";
import { reconcile, type Ledger } from "../src/index.ts";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createHarness, type Harness } from "./harness.ts";

describe("two ledger replicas under 200 concurrent reservations on one account", () => {
  let h: Harness;
  let ledger: LedgerClient;
  let replicas: Ledger[];

  beforeAll(async () => {
    h = await createHarness();
    replicas = [await h.replica(), await h.replica()];
    ledger = createLedgerClient(h.client, h.topo, { timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await h?.close();
  });

  const projectionMatchesStream = async (accountId: string) => {
    await h.projectionCaughtUp();
    const report = await reconcile({ js: jetstream(h.client), jsm: await jetstreamManager(h.client), db: h.tdb.db, topo: h.topo, accountId });
    expect(report.behind).toEqual([]);
    expect(report.differences).toEqual([]);
    const { state, lastSeq } = await h.fold(accountId);
    const row = await h.tdb.db.selectFrom("account_balances").selectAll().where("account_id", "=", accountId).executeTakeFirstOrThrow();
    expect({ ...balanceOf(state), lastSeq }).toEqual({ available: row.available, reserved: row.reserved, granted: row.granted, used: row.used, lastSeq: row.last_seq });
  };

  it("never takes the balance below zero when credits bind", async () => {
    const accountId = "acct-credits";
    expect((await ledger.grant({ accountId, grantId: "g1", credits: 150 })).ok).toBe(true);
    const requests = Array.from({ length: 200 }, (_, i) => ({
      accountId,
      keyId: `key${i % 25}`, // 8 per key: the windows never bind, the credits do
      reservationId: randomUUID(),
      kind: "scoring" as const,
      units: 1 + (i % 2),
    }));
    const results = await Promise.all(requests.map((r) => ledger.reserve(r)));

    const admitted = requests.filter((_, i) => results[i]!.ok);
    const admittedUnits = admitted.reduce((n, r) => n + r.units, 0);
    expect(admittedUnits).toBeLessThanOrEqual(150);
    // Credits ran out: every refusal is a 402 that saw too little, never anything else.
    for (const r of results) {
      if (r.ok) expect(r.value.balance).toBeGreaterThanOrEqual(0);
      else expect(r.rejection).toMatchObject({ type: "InsufficientCredits" });
      if (!r.ok && r.rejection.type === "InsufficientCredits") expect(r.rejection.available).toBeLessThan(r.rejection.required);
    }
    expect(admittedUnits).toBeGreaterThanOrEqual(149); // the last credit may be left by a 2-unit request
    // Both replicas served the one account.
    const stats = replicas.map((r) => r.store.stats());
    if (process.env.LEDGER_TEST_VERBOSE) console.warn(stats);
    expect(stats.every((s) => s.commands > 0)).toBe(true);

    const balance = await ledger.balance({ accountId });
    expect(balance).toEqual({ ok: true, value: { available: 150 - admittedUnits, reserved: admittedUnits, granted: 150, used: 0 } });

    // Settle everything concurrently, charging a part.
    const settled = await Promise.all(admitted.map((r, i) => ledger.settle({ accountId, reservationId: r.reservationId, unitsUsed: i % 3 === 0 ? 0 : r.units })));
    expect(settled.every((s) => s.ok)).toBe(true);
    const used = admitted.reduce((n, r, i) => n + (i % 3 === 0 ? 0 : r.units), 0);
    expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: { available: 150 - used, reserved: 0, granted: 150, used } });

    await projectionMatchesStream(accountId);
  });

  it("admits exactly 60 scoring units of one key in the window", async () => {
    const accountId = "acct-window";
    await ledger.grant({ accountId, grantId: "g1", credits: 10_000 });
    const results = await Promise.all(
      Array.from({ length: 200 }, () => ledger.reserve({ accountId, keyId: "hot-key", reservationId: randomUUID(), kind: "scoring", units: 1 })),
    );
    const ok = results.filter((r) => r.ok);
    expect(ok.length).toBe(60);
    for (const r of results) {
      if (r.ok) continue;
      expect(r.rejection).toMatchObject({ type: "RateLimited", kind: "scoring", remaining: 0 });
      if (r.rejection.type !== "RateLimited") continue;
      expect(r.rejection.retryAfter).toBeGreaterThanOrEqual(1);
      expect(r.rejection.retryAfter).toBeLessThanOrEqual(60);
      expect(r.rejection.resetAt).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1_000));
    }
    // Pairwise has its own window on the same key.
    const pairwise = await ledger.reserve({ accountId, keyId: "hot-key", reservationId: randomUUID(), kind: "pairwise", units: 10 });
    expect(pairwise).toMatchObject({ ok: true, value: { windowRemaining: 50 } });
    const { state } = await h.fold(accountId);
    expect(windowRemaining(state, "hot-key", "scoring", Date.now())).toBe(0);
    await projectionMatchesStream(accountId);
  });
});
