import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageRepository } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Rows of the ledger's mirror written directly, for two namespaces' streams that share an
// account id: the repository must only ever see its own stream.

let t: TestDatabase;
/** Today's UTC date as Postgres sees it, `YYYY-MM-DD`. */
let today: string;
beforeAll(async () => {
  t = await createTestDatabase("dbusage");
  today = (await sql<{ d: string }>`select to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as d`.execute(t.db)).rows[0]!.d;
  for (const stream of ["LEDGER", "other_LEDGER"]) {
    await t.db.insertInto("ledger_mirrors").values({ stream, stream_created: new Date(), status: "projecting", problem: null }).execute();
  }
});
afterAll(async () => {
  await t?.destroy();
});

const dayOffset = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
/** Noon UTC, `days` before today. */
const noon = (days: number) => new Date(`${dayOffset(days)}T12:00:00Z`);

let seq = 0;
async function reservation(stream: string, accountId: string, r: { kind: "scoring" | "pairwise"; units: number; status: "open" | "settled" | "expired"; closedDaysAgo: number | null }) {
  await t.db
    .insertInto("ledger_reservations")
    .values({
      stream,
      account_id: accountId,
      reservation_id: `res-${++seq}`,
      key_id: "key_x",
      kind: r.kind,
      units: r.units,
      units_used: r.status === "settled" ? r.units : null,
      status: r.status,
      reserved_at: noon(r.closedDaysAgo ?? 0),
      closed_at: r.closedDaysAgo === null ? null : noon(r.closedDaysAgo),
    })
    .execute();
}

describe("usage repository", () => {
  it("reads the balance of one stream only, and null for an account the mirror has not seen", async () => {
    await t.db.insertInto("ledger_accounts").values({ stream: "LEDGER", account_id: "acct_a", granted: 100, used: 30, reserved: 5, last_seq: 9, event_count: 9 }).execute();
    await t.db.insertInto("ledger_accounts").values({ stream: "other_LEDGER", account_id: "acct_a", granted: 7, used: 0, reserved: 0, last_seq: 1, event_count: 1 }).execute();
    await t.db.insertInto("ledger_accounts").values({ stream: "other_LEDGER", account_id: "acct_only_there", granted: 7, used: 0, reserved: 0, last_seq: 1, event_count: 1 }).execute();
    const usage = usageRepository(t.db, "LEDGER");
    expect(await usage.balance("acct_a")).toEqual({ granted: 100, used: 30, reserved: 5, available: 65 });
    expect(await usage.balance("acct_only_there")).toBeNull();
    expect(await usage.balance("acct_nobody")).toBeNull();
    expect(await usageRepository(t.db, "other_LEDGER").balance("acct_a")).toEqual({ granted: 7, used: 0, reserved: 0, available: 7 });
  });

  it("sums settled units per UTC day and kind over the last 30 days, oldest first, of its own stream", async () => {
    await reservation("LEDGER", "acct_u", { kind: "scoring", units: 3, status: "settled", closedDaysAgo: 0 });
    await reservation("LEDGER", "acct_u", { kind: "scoring", units: 4, status: "settled", closedDaysAgo: 0 });
    await reservation("LEDGER", "acct_u", { kind: "pairwise", units: 2, status: "settled", closedDaysAgo: 0 });
    await reservation("LEDGER", "acct_u", { kind: "scoring", units: 5, status: "settled", closedDaysAgo: 29 });
    await reservation("LEDGER", "acct_u", { kind: "scoring", units: 50, status: "settled", closedDaysAgo: 30 }); // too old
    await reservation("LEDGER", "acct_u", { kind: "scoring", units: 8, status: "open", closedDaysAgo: null }); // not settled
    await reservation("LEDGER", "acct_u", { kind: "scoring", units: 9, status: "expired", closedDaysAgo: 1 }); // not settled
    await reservation("other_LEDGER", "acct_u", { kind: "scoring", units: 1_000, status: "settled", closedDaysAgo: 0 }); // another namespace
    await reservation("LEDGER", "acct_someone_else", { kind: "scoring", units: 77, status: "settled", closedDaysAgo: 0 });
    const days = await usageRepository(t.db, "LEDGER").lastThirtyDays("acct_u");
    expect(days).toHaveLength(3);
    expect(days[0]).toEqual({ day: dayOffset(29), kind: "scoring", units: 5 });
    expect(days.slice(1).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { day: today, kind: "pairwise", units: 2 },
      { day: today, kind: "scoring", units: 7 },
    ]);
    expect(await usageRepository(t.db, "LEDGER").lastThirtyDays("acct_nobody")).toEqual([]);
  });
  it("sums model spend per account, model and kind over a range of UTC days, of its own stream", async () => {
    const row = (stream: string, account_id: string, day: string, model: string, kind: "scoring" | "pairwise", calls: number, input_tokens: number, output_tokens: number, cached_input_tokens = 0, cache_write_input_tokens = 0) => ({
      stream,
      account_id,
      day,
      model,
      kind,
      calls,
      input_tokens,
      output_tokens,
      cached_input_tokens,
      cache_write_input_tokens,
    });
    await t.db
      .insertInto("ledger_model_usage")
      .values([
        row("LEDGER", "acct_m", "2026-11-01", "openai:gpt-5-mini", "scoring", 6, 4_000, 300, 2_500),
        row("LEDGER", "acct_m", "2026-11-02", "openai:gpt-5-mini", "scoring", 6, 5_000, 200, 3_000),
        row("LEDGER", "acct_m", "2026-11-02", "openai:gpt-5-mini", "pairwise", 5, 9_000, 5),
        row("LEDGER", "acct_m", "2026-11-02", "anthropic:claude-sonnet-4-6", "scoring", 3, 2_500, 90, 1_600, 800),
        row("LEDGER", "acct_m", "2026-10-31", "openai:gpt-5-mini", "scoring", 100, 100, 100), // before the range
        row("LEDGER", "acct_m", "2026-11-03", "openai:gpt-5-mini", "scoring", 100, 100, 100), // after it
        row("LEDGER", "acct_n", "2026-11-01", "openai:gpt-5-mini", "scoring", 1, 10, 1),
        row("other_LEDGER", "acct_m", "2026-11-01", "openai:gpt-5-mini", "scoring", 1_000, 1_000, 1_000), // another namespace
      ])
      .execute();
    const usage = usageRepository(t.db, "LEDGER");
    const acctM = [
      { accountId: "acct_m", model: "anthropic:claude-sonnet-4-6", kind: "scoring", calls: 3, inputTokens: 2_500, outputTokens: 90, cachedInputTokens: 1_600, cacheWriteInputTokens: 800 },
      { accountId: "acct_m", model: "openai:gpt-5-mini", kind: "pairwise", calls: 5, inputTokens: 9_000, outputTokens: 5, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
      { accountId: "acct_m", model: "openai:gpt-5-mini", kind: "scoring", calls: 12, inputTokens: 9_000, outputTokens: 500, cachedInputTokens: 5_500, cacheWriteInputTokens: 0 },
    ];
    expect(await usage.modelSpend({ from: "2026-11-01", to: "2026-11-02", accountId: "acct_m" })).toEqual(acctM);
    expect(await usage.modelSpend({ from: "2026-11-01", to: "2026-11-02" })).toEqual([
      ...acctM,
      { accountId: "acct_n", model: "openai:gpt-5-mini", kind: "scoring", calls: 1, inputTokens: 10, outputTokens: 1, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
    ]);
    expect(await usage.modelSpend({ from: "2026-11-02", to: "2026-11-02", accountId: "acct_n" })).toEqual([]);
    expect(await usageRepository(t.db, "other_LEDGER").modelSpend({ from: "2026-11-01", to: "2026-11-01" })).toEqual([
      { accountId: "acct_m", model: "openai:gpt-5-mini", kind: "scoring", calls: 1_000, inputTokens: 1_000, outputTokens: 1_000, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
    ]);
  });

  it("reads the same rows per UTC day, ordered by day, of its own stream", async () => {
    // The rows of the test above.
    const usage = usageRepository(t.db, "LEDGER");
    expect(await usage.dailyModelSpend({ from: "2026-11-01", to: "2026-11-02", accountId: "acct_m" })).toEqual([
      { day: "2026-11-01", accountId: "acct_m", model: "openai:gpt-5-mini", kind: "scoring", calls: 6, inputTokens: 4_000, outputTokens: 300, cachedInputTokens: 2_500, cacheWriteInputTokens: 0 },
      { day: "2026-11-02", accountId: "acct_m", model: "anthropic:claude-sonnet-4-6", kind: "scoring", calls: 3, inputTokens: 2_500, outputTokens: 90, cachedInputTokens: 1_600, cacheWriteInputTokens: 800 },
      { day: "2026-11-02", accountId: "acct_m", model: "openai:gpt-5-mini", kind: "pairwise", calls: 5, inputTokens: 9_000, outputTokens: 5, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
      { day: "2026-11-02", accountId: "acct_m", model: "openai:gpt-5-mini", kind: "scoring", calls: 6, inputTokens: 5_000, outputTokens: 200, cachedInputTokens: 3_000, cacheWriteInputTokens: 0 },
    ]);
    expect((await usage.dailyModelSpend({ from: "2026-11-01", to: "2026-11-01" })).map((r) => r.accountId)).toEqual(["acct_m", "acct_n"]);
    expect(await usageRepository(t.db, "other_LEDGER").dailyModelSpend({ from: "2026-11-02", to: "2026-11-02" })).toEqual([]);
  });

  it("finds one request's settlements, its takeovers' included, and nothing of another request or stream", async () => {
    const usage = (model: string, inputTokens: number, cachedInputTokens?: number) => ({ model, calls: 1, inputTokens, outputTokens: 7, ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }) });
    let n = 1_000;
    const settledEvent = (stream: string, accountId: string, reservationId: string, modelUsage?: object[]) =>
      t.db
        .insertInto("ledger_events")
        .values({
          stream,
          stream_seq: ++n,
          account_id: accountId,
          type: "UsageSettled",
          payload: JSON.stringify({ type: "UsageSettled", reservationId, keyId: "k", kind: "scoring", unitsReserved: 2, unitsUsed: 2, reservedAt: 1, ...(modelUsage ? { modelUsage } : {}), at: Date.UTC(2026, 10, 2) }),
          at: new Date(Date.UTC(2026, 10, 2)),
        })
        .execute();
    await settledEvent("LEDGER", "acct_r", "req_a%1", [usage("openai:gpt-5-mini", 100, 60)]);
    await settledEvent("LEDGER", "acct_r", "req_a%1-r2", [usage("openai:gpt-5-mini", 50)]);
    await settledEvent("LEDGER", "acct_r", "req_a%1-r2x"); // not a takeover's id
    await settledEvent("LEDGER", "acct_r", "req_ab%1"); // % and _ are not wildcards
    await settledEvent("LEDGER", "acct_r", "req_a%12");
    await settledEvent("other_LEDGER", "acct_r", "req_a%1-r3");
    await t.db.insertInto("ledger_events").values({ stream: "LEDGER", stream_seq: ++n, account_id: "acct_r", type: "UsageReserved", payload: JSON.stringify({ type: "UsageReserved", reservationId: "req_a%1" }), at: new Date() }).execute();
    const found = await usageRepository(t.db, "LEDGER").requestSettlements("req_a%1");
    expect(found).toEqual([
      { reservationId: "req_a%1", accountId: "acct_r", kind: "scoring", unitsUsed: 2, settledAt: "2026-11-02T00:00:00.000Z", modelUsage: [usage("openai:gpt-5-mini", 100, 60)] },
      { reservationId: "req_a%1-r2", accountId: "acct_r", kind: "scoring", unitsUsed: 2, settledAt: "2026-11-02T00:00:00.000Z", modelUsage: [usage("openai:gpt-5-mini", 50)] },
    ]);
    expect(await usageRepository(t.db, "LEDGER").requestSettlements("req_nobody")).toEqual([]);
  });
});
