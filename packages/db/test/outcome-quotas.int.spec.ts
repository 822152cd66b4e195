import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutcomeQuotaExceeded, outcomesRepository, type NewOutcome } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Per-account outcome quotas (issue 31) against a real PostgreSQL: a batch whose new rows or
// new metric names do not fit is refused whole, batches racing for the last room cannot both
// take it, and a calibration read is bounded, newest first, and says when it left rows out.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbquotas");
});
afterAll(async () => {
  await t?.destroy();
});

const repo = () => outcomesRepository(t.db);
const request = randomUUID();
const outcome = (assetId: string, metric = "ctr", value = 1): NewOutcome => ({
  requestId: request,
  assetId,
  metric,
  value,
  impressions: null,
  goal: "purchase-intent",
  score: 1,
  scoreBeforeRefine: 1,
  simulated: true,
  rank: null,
  pAboveNext: null,
  requestCreatedAt: new Date(),
});
const rowsOf = async (accountId: string) => Number((await sql<{ n: string }>`select count(*) as n from outcomes where account_id = ${accountId}`.execute(t.db)).rows[0]!.n);
const refusal = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

describe("outcome quotas", () => {
  it("refuses a new metric name beyond the quota, naming the first that does not fit, and writes nothing", async () => {
    const quota = { maxMetrics: 3, maxRows: 100 };
    await repo().record("acct_metrics", [outcome("a", "m1"), outcome("a", "m2")], quota);
    const err = await refusal(repo().record("acct_metrics", [outcome("b", "m1"), outcome("b", "m3"), outcome("b", "m4"), outcome("b", "m5")], quota));
    expect(err).toBeInstanceOf(OutcomeQuotaExceeded);
    expect(err).toMatchObject({ quota: "metrics", limit: 3, stored: 2, adding: 3, metric: "m4" });
    expect(await rowsOf("acct_metrics")).toBe(2);
    // Known names take new rows; a third name fits.
    await repo().record("acct_metrics", [outcome("b", "m1"), outcome("b", "m3")], quota);
    expect(await rowsOf("acct_metrics")).toBe(4);
  });

  it("refuses new rows beyond the quota but takes new values of stored ones, and counts only what is new", async () => {
    const quota = { maxMetrics: 20, maxRows: 3 };
    await repo().record("acct_rows", [outcome("a"), outcome("b"), outcome("c")], quota);
    expect(await refusal(repo().record("acct_rows", [outcome("a", "ctr", 2), outcome("d")], quota))).toMatchObject({ quota: "rows", limit: 3, stored: 3, adding: 1 });
    const updated = await repo().record("acct_rows", [outcome("a", "ctr", 2), outcome("b", "ctr", 3)], quota);
    expect(updated.map((r) => r.change)).toEqual(["updated", "updated"]);
    expect(await rowsOf("acct_rows")).toBe(3);
  });

  it("lets only one of two racing batches take the last room", async () => {
    const quota = { maxMetrics: 20, maxRows: 4 };
    await repo().record("acct_race", [outcome("a"), outcome("b")], quota);
    const results = await Promise.all([refusal(repo().record("acct_race", [outcome("c"), outcome("d")], quota)), refusal(repo().record("acct_race", [outcome("e"), outcome("f")], quota))]);
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(results.filter((r) => r instanceof OutcomeQuotaExceeded)).toHaveLength(1);
    expect(await rowsOf("acct_race")).toBe(4);
  });
});

describe("readForCalibration", () => {
  it("reads at most `limit` rows, the most recently recorded first, and says when it left some out", async () => {
    await repo().record("acct_read", [outcome("old1"), outcome("old2"), outcome("old3")]);
    await sql`update outcomes set updated_at = updated_at - interval '1 hour' where account_id = 'acct_read'`.execute(t.db);
    await repo().record("acct_read", [outcome("new1"), outcome("new2")]);
    const read = await repo().readForCalibration("acct_read", {}, { limit: 3, timeoutMs: 2_000 });
    expect(read.truncated).toBe(true);
    expect(read.rows.map((r) => r.assetId).slice(0, 2).sort()).toEqual(["new1", "new2"]);
    expect(read.rows).toHaveLength(3);
    const all = await repo().readForCalibration("acct_read", {}, { limit: 5, timeoutMs: 2_000 });
    expect(all).toMatchObject({ truncated: false });
    expect(all.rows).toHaveLength(5);
    expect((await repo().readForCalibration("acct_read", { metric: "cvr" }, { limit: 5, timeoutMs: 2_000 })).rows).toEqual([]);
  });
});
