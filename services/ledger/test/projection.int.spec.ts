import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import type { LedgerEvent } from "@adrank/ledger-domain";
import { applyEvents, MirrorDivergedError, MirrorHaltedError } from "../src/index.ts";
import { mirrorStore } from "../src/mirror/store.ts";

const STREAM = "LEDGER";
const T = Date.UTC(2026, 10, 22, 23, 59, 0);
const history: Array<{ seq: number; accountId: string; event: LedgerEvent }> = [
  { seq: 1, accountId: "a1", event: { type: "CreditsGranted", grantId: "g1", credits: 50, at: T } },
  { seq: 2, accountId: "a1", event: { type: "UsageReserved", reservationId: "r1", keyId: "k1", kind: "scoring", units: 4, at: T + 1 } },
  { seq: 3, accountId: "a2", event: { type: "CreditsGranted", grantId: "g1", credits: 5, at: T + 2 } },
  { seq: 4, accountId: "a1", event: { type: "UsageReserved", reservationId: "r2", keyId: "k1", kind: "pairwise", units: 2, at: T + 3 } },
  { seq: 5, accountId: "a1", event: { type: "UsageSettled", reservationId: "r1", keyId: "k1", kind: "scoring", unitsReserved: 4, unitsUsed: 3, reservedAt: T + 1, at: T + 120_000 } },
  { seq: 6, accountId: "a1", event: { type: "ReservationExpired", reservationId: "r2", keyId: "k1", kind: "pairwise", unitsReserved: 2, reservedAt: T + 3, at: T + 300_000 } },
  { seq: 7, accountId: "a1", event: { type: "UsageReserved", reservationId: "r3", keyId: "k2", kind: "scoring", units: 1, at: T + 300_001 } },
];

async function snapshot(db: TestDatabase["db"], stream = STREAM) {
  return {
    balances: await db.selectFrom("account_balances").select(["account_id", "granted", "used", "reserved", "available", "last_seq"]).where("stream", "=", stream).orderBy("account_id").execute(),
    reservations: await db.selectFrom("ledger_reservations").select(["account_id", "reservation_id", "status", "units", "units_used"]).where("stream", "=", stream).orderBy("reservation_id").execute(),
    usage: await db.selectFrom("usage_per_day").select(["account_id", "kind", "units_used", "reservations"]).where("stream", "=", stream).execute(),
    events: (await db.selectFrom("ledger_events").select((eb) => eb.fn.countAll<number>().as("n")).where("stream", "=", stream).executeTakeFirstOrThrow()).n,
    mirrorLastSeq: (await mirrorStore(db, stream).read())?.lastSeq,
  };
}

describe("projection of ledger events into real Postgres", () => {
  let inOrder: TestDatabase;
  let shuffled: TestDatabase;
  beforeAll(async () => {
    [inOrder, shuffled] = await Promise.all([createTestDatabase("ledgerproj"), createTestDatabase("ledgerproj")]);
    for (const t of [inOrder, shuffled]) await mirrorStore(t.db, STREAM).claim(new Date(T));
  });
  afterAll(async () => {
    await Promise.all([inOrder?.destroy(), shuffled?.destroy()]);
  });

  it("turns events into balances, reservations and daily usage", async () => {
    expect(await applyEvents(inOrder.db, STREAM, history)).toBe(7);
    const s = await snapshot(inOrder.db);
    expect(s.balances).toEqual([
      { account_id: "a1", granted: 50, used: 3, reserved: 1, available: 46, last_seq: 7 },
      { account_id: "a2", granted: 5, used: 0, reserved: 0, available: 5, last_seq: 3 },
    ]);
    expect(s.reservations).toEqual([
      { account_id: "a1", reservation_id: "r1", status: "settled", units: 4, units_used: 3 },
      { account_id: "a1", reservation_id: "r2", status: "expired", units: 2, units_used: 0 },
      { account_id: "a1", reservation_id: "r3", status: "open", units: 1, units_used: null },
    ]);
    // Usage counts on the (UTC) day of settlement: r1 was reserved on the 22nd, settled on the 23rd.
    expect(s.usage).toEqual([{ account_id: "a1", kind: "scoring", units_used: 3, reservations: 1 }]);
    expect(s.mirrorLastSeq).toBe(7);
  });

  it("changes nothing when events are delivered again", async () => {
    const before = await snapshot(inOrder.db);
    expect(await applyEvents(inOrder.db, STREAM, history.slice(2, 6))).toBe(0);
    expect(await snapshot(inOrder.db)).toEqual(before);
  });

  it("ends in the same place when replicas apply events out of order, in overlapping batches", async () => {
    const reversed = [...history].reverse();
    await applyEvents(shuffled.db, STREAM, reversed.slice(0, 3));
    await applyEvents(shuffled.db, STREAM, reversed.slice(2, 5));
    await applyEvents(shuffled.db, STREAM, reversed.slice(4));
    expect(await snapshot(shuffled.db)).toEqual(await snapshot(inOrder.db));
  });

  it("projects a second stream whose sequence numbers overlap the first in full, and keeps both apart", async () => {
    // The bug this replaces: a second namespace's events 1..n were acknowledged and dropped.
    const other = "ns2_LEDGER";
    await mirrorStore(inOrder.db, other).claim(new Date(T + 5));
    const before = await snapshot(inOrder.db);
    const second = [
      { seq: 1, accountId: "a1", event: { type: "CreditsGranted", grantId: "g-other", credits: 20, at: T } },
      { seq: 2, accountId: "b1", event: { type: "CreditsGranted", grantId: "g-other", credits: 9, at: T } },
    ] satisfies typeof history;
    expect(await applyEvents(inOrder.db, other, second)).toBe(2);
    expect((await snapshot(inOrder.db, other)).balances).toEqual([
      { account_id: "a1", granted: 20, used: 0, reserved: 0, available: 20, last_seq: 1 },
      { account_id: "b1", granted: 9, used: 0, reserved: 0, available: 9, last_seq: 2 },
    ]);
    expect(await snapshot(inOrder.db)).toEqual(before);
  });

  it("refuses a redelivered sequence with other content, changing nothing", async () => {
    const before = await snapshot(inOrder.db);
    const impostor = { seq: 3, accountId: "a2", event: { type: "CreditsGranted" as const, grantId: "g1", credits: 500, at: T + 2 } };
    const fresh = { seq: 8, accountId: "a2", event: { type: "CreditsGranted" as const, grantId: "g2", credits: 1, at: T + 400_000 } };
    const err = await applyEvents(inOrder.db, STREAM, [fresh, impostor]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MirrorDivergedError);
    expect(err).toMatchObject({ seq: 3, accountId: "a2" });
    expect(await snapshot(inOrder.db)).toEqual(before);
  });

  it("projects nothing into a halted mirror, or a stream without one", async () => {
    const fresh = { seq: 8, accountId: "a2", event: { type: "CreditsGranted" as const, grantId: "g2", credits: 1, at: T + 400_000 } };
    await expect(applyEvents(inOrder.db, "NOBODY", [fresh])).rejects.toBeInstanceOf(MirrorHaltedError);
    const before = await snapshot(inOrder.db);
    await mirrorStore(inOrder.db, STREAM).halt("test halt");
    await expect(applyEvents(inOrder.db, STREAM, [fresh])).rejects.toBeInstanceOf(MirrorHaltedError);
    expect(await snapshot(inOrder.db)).toEqual(before);
  });
});
