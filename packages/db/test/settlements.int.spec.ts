import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadWithImages, requestsRepository, settlementsRepository, type PendingSettlement } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// The settlement outbox against a real PostgreSQL (issue 33): a settle recorded once, claimed
// by one relay at a time, closed once, and the request's stored answer brought up to date with
// what was really charged, byte for byte elsewhere, its images intact.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbsettlements");
});
afterAll(async () => {
  await t?.destroy();
});

const STREAM = "LEDGER";
const repo = () => settlementsRepository(t.db);
const pending = (over: Partial<PendingSettlement> = {}): PendingSettlement => {
  const id = randomUUID();
  return { stream: STREAM, reservationId: id, requestId: id, accountId: "acct_s", unitsUsed: 3, modelUsage: [{ model: "sim:a", calls: 6, inputTokens: 10, outputTokens: 5 }], ...over };
};
const due = (reservationId: string) => sql`update settlement_outbox set next_attempt_at = now() where reservation_id = ${reservationId}`.execute(t.db);
const image = `data:image/png;base64,${randomBytes(900).toString("base64")}`;

describe("settlement outbox", () => {
  it("records a settle once, and leaves it to its request for the first while", async () => {
    const s = pending();
    await repo().record(s, 60_000);
    await repo().record({ ...s, unitsUsed: 9 }, 60_000);
    const rows = await t.db.selectFrom("settlement_outbox").selectAll().where("reservation_id", "=", s.reservationId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ units_used: 3, state: "pending", attempts: 0, model_usage: s.modelUsage });
    expect(await repo().claimDue(STREAM, 100, 10_000)).not.toContainEqual(expect.objectContaining({ reservationId: s.reservationId }));
    expect(await repo().pendingAmong(STREAM, [s.reservationId, "other"])).toEqual(new Set([s.reservationId]));
    expect(await repo().pendingAmong("OTHER", [s.reservationId])).toEqual(new Set());
  });

  it("lets one relay claim a due settle at a time, and tries it again after the retry time", async () => {
    const s = pending();
    await repo().record(s, 0);
    const [first, second] = await Promise.all([repo().claimDue(STREAM, 100, 10_000), repo().claimDue(STREAM, 100, 10_000)]);
    const claims = [...first, ...second].filter((c) => c.reservationId === s.reservationId);
    expect(claims).toEqual([{ ...s, attempts: 1 }]);
    expect((await repo().claimDue(STREAM, 100, 10_000)).map((c) => c.reservationId)).not.toContain(s.reservationId);
    await repo().failed(STREAM, s.reservationId, "ledger timeout");
    await due(s.reservationId);
    expect((await repo().claimDue(STREAM, 100, 10_000)).find((c) => c.reservationId === s.reservationId)).toMatchObject({ attempts: 2 });
  });

  it("keeps the first end of a settle, and brings the stored answer that said pending up to date once", async () => {
    const s = pending();
    await repo().record(s, 0);
    const body = JSON.stringify({ request_id: s.requestId, ranked: [{ rank: 1, asset_url: image }], errors: [], summary: { scoring_evaluations: 3, credits_used: 3, credits_remaining: null, credits_status: "pending" } });
    await requestsRepository(t.db).recordFinishedMany([
      { request: { requestId: s.requestId, accountId: s.accountId, keyId: "k", operation: "rank", fingerprint: "-", progressTotal: 1 }, response: { status: 200, headers: {}, body } },
    ]);

    await repo().finish(STREAM, s.reservationId, { state: "applied", creditsUsed: 3, balance: 41 });
    await repo().finish(STREAM, s.reservationId, { state: "refused", reason: "late" });
    expect(await repo().pendingAmong(STREAM, [s.reservationId])).toEqual(new Set());
    expect(await repo().reportSettled(STREAM, 100, 60_000)).toBeGreaterThanOrEqual(1);
    expect(await repo().reportSettled(STREAM, 100, 60_000)).toBe(0);

    const stored = await requestsRepository(t.db).find(s.requestId, s.accountId);
    const text = stored!.result!.body;
    expect(JSON.parse(text).summary).toEqual({ scoring_evaluations: 3, credits_used: 3, credits_remaining: 41, credits_status: "confirmed" });
    expect(text).toBe(body.replace('"credits_remaining":null,"credits_status":"pending"', '"credits_remaining":41,"credits_status":"confirmed"'));
    expect(await loadWithImages(t.db, text)).toContain(image);
  });

  it("waits for a stored answer that is not written yet, then reports it", async () => {
    const s = pending();
    await repo().record(s, 0);
    await repo().finish(STREAM, s.reservationId, { state: "refused", reason: '{"type":"ReservationAlreadyExpired"}' });
    await repo().reportSettled(STREAM, 100, 60_000);
    const row = () => t.db.selectFrom("settlement_outbox").select(["result_updated_at", "credits_used", "state"]).where("reservation_id", "=", s.reservationId).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ result_updated_at: null, state: "refused", credits_used: 0 });
    const body = JSON.stringify({ request_id: s.requestId, pairs: [], summary: { credits_used: 3, credits_remaining: null, credits_status: "pending" } });
    await requestsRepository(t.db).recordFinishedMany([
      { request: { requestId: s.requestId, accountId: s.accountId, keyId: "k", operation: "pairwise", fingerprint: "-", progressTotal: 1 }, response: { status: 200, headers: {}, body } },
    ]);
    await repo().reportSettled(STREAM, 100, 60_000);
    expect((await row()).result_updated_at).not.toBeNull();
    const stored = await requestsRepository(t.db).find(s.requestId, s.accountId);
    expect(JSON.parse(stored!.result!.body).summary).toEqual({ credits_used: 0, credits_remaining: null, credits_status: "confirmed" });
  });
});
