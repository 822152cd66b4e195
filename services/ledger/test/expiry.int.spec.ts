import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { settlementsRepository } from "@adrank/db/repositories";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { createHarness, eventually, type Harness } from "./harness.ts";

const TTL_MS = 1_500;

describe("reservations left open expire and release their credits", () => {
  let h: Harness;
  let ledger: LedgerClient;
  beforeAll(async () => {
    h = await createHarness();
    ledger = createLedgerClient(h.client, h.topo);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("expires an unsettled reservation after the TTL and rejects the late settle", async () => {
    const replica = await h.replica({ reservationTtlMs: TTL_MS, sweepIntervalMs: 200 });
    const accountId = "acct-expiry";
    await ledger.grant({ accountId, grantId: "g1", credits: 10 });
    const reservationId = randomUUID();
    const reservedAt = Date.now();
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId, kind: "scoring", units: 4 })).toMatchObject({ ok: true, value: { balance: 6 } });

    await eventually(async () => {
      const b = await ledger.balance({ accountId });
      return b.ok && b.value.available === 10;
    }, 10_000, "the credits to be released");
    expect(Date.now() - reservedAt).toBeGreaterThanOrEqual(TTL_MS);
    expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: { available: 10, reserved: 0, granted: 10, used: 0 } });

    const late = await ledger.settle({ accountId, reservationId, unitsUsed: 4 });
    expect(late).toMatchObject({ ok: false, rejection: { type: "ReservationAlreadyExpired", reservationId } });
    // The expired units no longer count in the window either.
    expect(await ledger.reserve({ accountId, keyId: "k1", reservationId: randomUUID(), kind: "scoring", units: 10 })).toMatchObject({ ok: true, value: { windowRemaining: 50 } });

    await h.projectionCaughtUp();
    const row = await h.tdb.db.selectFrom("ledger_reservations").selectAll().where("reservation_id", "=", reservationId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "expired", units_used: 0 });
    await replica.stop();
  });

  it("expires reservations of accounts no replica has cached, found through the projection, once with two sweepers", async () => {
    // A replica without a sweeper takes the reservations, then goes away with its cache.
    const writer = await h.replica({ sweeper: false });
    const accounts = ["acct-cold-1", "acct-cold-2", "acct-cold-3"];
    const reservations: Array<{ accountId: string; reservationId: string }> = [];
    for (const accountId of accounts) {
      await ledger.grant({ accountId, grantId: "g1", credits: 5 });
      const reservationId = randomUUID();
      await ledger.reserve({ accountId, keyId: "k1", reservationId, kind: "pairwise", units: 5 });
      reservations.push({ accountId, reservationId });
    }
    await h.projectionCaughtUp();
    await writer.stop();

    // Two fresh replicas with empty caches sweep at the same time. Nothing asks them about
    // these accounts (that would cache them), so only the projection can point them there.
    const sweepers = [await h.replica({ reservationTtlMs: TTL_MS, sweepIntervalMs: 150, projection: false }), await h.replica({ reservationTtlMs: TTL_MS, sweepIntervalMs: 150 })];
    await eventually(async () => {
      const rows = await h.tdb.db.selectFrom("ledger_reservations").select("status").where("account_id", "in", accounts).execute();
      return rows.length === 3 && rows.every((r) => r.status === "expired");
    }, 10_000, "every cold reservation to expire");
    for (const accountId of accounts) expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: { available: 5, reserved: 0, granted: 5, used: 0 } });

    for (const { accountId, reservationId } of reservations) {
      const events = await h.events(accountId);
      expect(events.filter((e) => e.event.type === "ReservationExpired" && e.event.reservationId === reservationId)).toHaveLength(1);
    }
    await Promise.all(sweepers.map((s) => s.stop()));
  });

  it("never expires a reservation whose settle a gateway is still relaying from the settlement outbox", async () => {
    const replica = await h.replica({ reservationTtlMs: TTL_MS, sweepIntervalMs: 150 });
    const outbox = settlementsRepository(h.tdb.db);
    const accountId = "acct-outbox";
    await ledger.grant({ accountId, grantId: "g1", credits: 10 });
    const [relayed, forgotten] = [randomUUID(), randomUUID()];
    await ledger.reserve({ accountId, keyId: "k1", reservationId: relayed, kind: "scoring", units: 3 });
    await ledger.reserve({ accountId, keyId: "k1", reservationId: forgotten, kind: "scoring", units: 2 });
    // The gateway's settle of `relayed` went unanswered: it is in the outbox, waiting.
    await outbox.record({ stream: h.topo.streams.ledger.name, reservationId: relayed, requestId: relayed, accountId, unitsUsed: 3, modelUsage: null }, 60_000);
    // The same id in another namespace's outbox protects nothing here.
    await outbox.record({ stream: "OTHER_LEDGER", reservationId: forgotten, requestId: forgotten, accountId, unitsUsed: 2, modelUsage: null }, 60_000);

    await eventually(async () => {
      const b = await ledger.balance({ accountId });
      return b.ok && b.value.reserved === 3;
    }, 10_000, "the reservation nobody is relaying to expire");
    await new Promise((r) => setTimeout(r, TTL_MS));
    expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: { available: 7, reserved: 3, granted: 10, used: 0 } });

    // The relay's settle then charges it, once.
    expect(await ledger.settle({ accountId, reservationId: relayed, unitsUsed: 3 })).toMatchObject({ ok: true, value: { creditsUsed: 3, balance: 7 } });
    expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: { available: 7, reserved: 0, granted: 10, used: 3 } });
    await replica.stop();
  });
});
