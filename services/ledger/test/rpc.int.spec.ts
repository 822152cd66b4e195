import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { decodeJson, encodeJson } from "@adrank/messaging";
import { reconcile } from "../src/index.ts";
import { createHarness, type Harness } from "./harness.ts";

describe("ledger RPC over real NATS, projected into real Postgres", () => {
  let h: Harness;
  let ledger: LedgerClient;
  beforeAll(async () => {
    h = await createHarness();
    await h.replica();
    ledger = createLedgerClient(h.client, h.topo);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("reserves, settles and reports the balance and the window", async () => {
    const accountId = "acct-flow";
    expect(await ledger.grant({ accountId, grantId: "g1", credits: 20, reason: "trial" })).toEqual({ ok: true, value: { available: 20, reserved: 0, granted: 20, used: 0 } });
    const reservationId = randomUUID();
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId, kind: "scoring", units: 8 })).toEqual({
      ok: true,
      value: { reservationId, balance: 12, windowRemaining: 52 },
    });
    expect(await ledger.settle({ accountId, reservationId, unitsUsed: 5 })).toEqual({
      ok: true,
      value: { reservationId, balance: 15, creditsUsed: 5, windowRemaining: 55, alreadySettled: false },
    });
    expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: { available: 15, reserved: 0, granted: 20, used: 5 } });
  });

  it("answers 402- and 429-worthy requests with typed rejections", async () => {
    const accountId = "acct-reject";
    await ledger.grant({ accountId, grantId: "g1", credits: 3 });
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId: randomUUID(), kind: "scoring", units: 4 })).toEqual({
      ok: false,
      rejection: { type: "InsufficientCredits", available: 3, required: 4 },
    });
    await ledger.grant({ accountId, grantId: "g2", credits: 100 });
    expect((await ledger.reserve({ accountId, keyId: "k1", reservationId: randomUUID(), kind: "pairwise", units: 60 })).ok).toBe(true);
    const limited = await ledger.reserve({ accountId, keyId: "k1", reservationId: randomUUID(), kind: "pairwise", units: 1 });
    expect(limited).toMatchObject({ ok: false, rejection: { type: "RateLimited", kind: "pairwise", limit: 60, remaining: 0 } });
    if (!limited.ok && limited.rejection.type === "RateLimited") {
      const nowS = Date.now() / 1_000;
      expect(Number.isInteger(limited.rejection.retryAfter) && Number.isInteger(limited.rejection.resetAt)).toBe(true);
      expect(limited.rejection.retryAfter).toBeGreaterThanOrEqual(59);
      expect(limited.rejection.resetAt).toBeGreaterThan(nowS + 58);
      expect(limited.rejection.resetAt).toBeLessThanOrEqual(Math.ceil(nowS) + 60);
    }
  });

  it("treats a repeated settle with the same units as success and a different one as a rejection", async () => {
    const accountId = "acct-repeat";
    await ledger.grant({ accountId, grantId: "g1", credits: 10 });
    const reservationId = randomUUID();
    await ledger.reserve({ accountId, keyId: "k1", reservationId, kind: "scoring", units: 3 });
    await ledger.settle({ accountId, reservationId, unitsUsed: 2 });
    expect(await ledger.settle({ accountId, reservationId, unitsUsed: 2 })).toEqual({
      ok: true,
      value: { reservationId, balance: 8, creditsUsed: 2, windowRemaining: 58, alreadySettled: true },
    });
    expect(await ledger.settle({ accountId, reservationId, unitsUsed: 3 })).toEqual({ ok: false, rejection: { type: "AlreadySettled", reservationId, unitsUsed: 2 } });
    expect(await ledger.settle({ accountId, reservationId: "never", unitsUsed: 1 })).toEqual({ ok: false, rejection: { type: "UnknownReservation", reservationId: "never" } });
    expect(await ledger.balance({ accountId })).toMatchObject({ ok: true, value: { available: 8, used: 2 } });
    // Exactly one settle event in the stream.
    expect((await h.events(accountId)).filter((e) => e.event.type === "UsageSettled")).toHaveLength(1);
  });

  it("rejects malformed requests with bad_request and never touches the stream", async () => {
    const raw = async (subject: string, body: unknown) => decodeJson((await h.client.request(subject, encodeJson(body), { timeout: 2_000 })).data);
    expect(await raw(h.topo.ledgerRpc.reserve, { accountId: "a.b", keyId: "k", reservationId: "r", kind: "scoring", units: 1 })).toMatchObject({
      ok: false,
      error: { code: "bad_request" },
    });
    expect(await raw(h.topo.ledgerRpc.grant, { accountId: "acct-bad", grantId: "g", credits: -5 })).toMatchObject({ ok: false, error: { code: "bad_request" } });
    expect(await raw(h.topo.ledgerRpc.reserve, { accountId: "acct-bad", keyId: "k", reservationId: "r", kind: "scoring", units: 61 })).toMatchObject({
      ok: false,
      error: { code: "bad_request" },
    });
    const notJson = decodeJson((await h.client.request(h.topo.ledgerRpc.balance, new TextEncoder().encode("{nope"), { timeout: 2_000 })).data);
    expect(notJson).toMatchObject({ ok: false, error: { code: "bad_request" } });
    expect(await h.events("acct-bad")).toEqual([]);
  });

  it("keeps the dashboard views in step with the stream, and reconcile notices a tampered projection", async () => {
    await h.projectionCaughtUp();
    const js = jetstream(h.client);
    const jsm = await jetstreamManager(h.client);
    const clean = await reconcile({ js, jsm, db: h.tdb.db, topo: h.topo });
    expect(clean.differences).toEqual([]);
    expect(clean.behind).toEqual([]);
    expect(clean.accountsChecked).toBe(3);

    const usage = await h.tdb.db.selectFrom("usage_per_day").selectAll().where("account_id", "=", "acct-flow").execute();
    expect(usage.map((u) => ({ kind: u.kind, units_used: u.units_used, reservations: u.reservations }))).toEqual([{ kind: "scoring", units_used: 5, reservations: 1 }]);

    await h.tdb.db.updateTable("ledger_accounts").set({ used: 999 }).where("account_id", "=", "acct-flow").execute();
    const tampered = await reconcile({ js, jsm, db: h.tdb.db, topo: h.topo, accountId: "acct-flow" });
    expect(tampered.differences).toEqual([{ accountId: "acct-flow", field: "used", stream: 5, projection: 999 }]);
    await h.tdb.db.updateTable("ledger_accounts").set({ used: 5 }).where("account_id", "=", "acct-flow").execute();
  });
});
