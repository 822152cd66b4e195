import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keptEvaluationsRepository, type KeptEvaluation } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Evaluations kept for reuse (issue 36) against a real PostgreSQL: upserted, found only by
// their own account, namespace and method key while unexpired, and swept once expired.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbkept");
});
afterAll(async () => {
  await t?.destroy();
});

const repo = () => keptEvaluationsRepository(t.db);
const METHOD = "0123456789abcdef";
const key = () => randomBytes(32).toString("hex");
const kept = (over: Partial<KeptEvaluation> = {}): KeptEvaluation => ({ namespace: "", accountId: "acct_a", key: key(), methodKey: METHOD, evaluation: { score: 3.5, rationale: "r" }, ...over });
const expire = (k: string) => sql`update kept_evaluations set expires_at = now() - interval '1 second' where key = ${k}`.execute(t.db);

describe("kept evaluations", () => {
  it("keeps evaluations in one statement and finds them by key, for their account", async () => {
    const a = kept();
    const b = kept({ evaluation: { score: 2 } });
    await repo().keepMany([a, b], 168);
    const found = await repo().find({ namespace: "", accountId: "acct_a", methodKey: METHOD, keys: [a.key, b.key, key()] });
    expect(found).toEqual(new Map([[a.key, a.evaluation], [b.key, b.evaluation]]));
    const row = await t.db.selectFrom("kept_evaluations").select(sql<number>`extract(epoch from expires_at - kept_at)`.as("ttl")).where("key", "=", a.key).executeTakeFirstOrThrow();
    expect(Math.round(Number(row.ttl) / 3600)).toBe(168);
  });

  it("replaces an older evaluation of the same key with the newer, also within one write", async () => {
    const first = kept();
    await repo().keepMany([first], 1);
    await repo().keepMany([{ ...first, evaluation: { score: 4 } }, { ...first, evaluation: { score: 4.5 } }], 24);
    const rows = await t.db.selectFrom("kept_evaluations").selectAll().where("key", "=", first.key).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.evaluation)).toEqual({ score: 4.5 });
    expect(rows[0]!.expires_at.getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
  });

  it("never finds another account's, another namespace's or another method's evaluation of the same key", async () => {
    const mine = kept({ accountId: "acct_mine" });
    await repo().keepMany([mine, { ...mine, accountId: "acct_other", evaluation: { score: 1 } }, { ...mine, namespace: "blue", evaluation: { score: 1.5 } }], 168);
    const q = { namespace: "", accountId: "acct_mine", methodKey: METHOD, keys: [mine.key] };
    expect((await repo().find(q)).get(mine.key)).toEqual(mine.evaluation);
    expect(await repo().find({ ...q, accountId: "acct_stranger" })).toEqual(new Map());
    expect((await repo().find({ ...q, accountId: "acct_other" })).get(mine.key)).toEqual({ score: 1 });
    expect((await repo().find({ ...q, namespace: "blue" })).get(mine.key)).toEqual({ score: 1.5 });
    expect(await repo().find({ ...q, namespace: "green" })).toEqual(new Map());
    expect(await repo().find({ ...q, methodKey: "fedcba9876543210" })).toEqual(new Map());
  });

  it("ignores expired evaluations, and sweeps them a bounded batch at a time, in its namespace only", async () => {
    const ns = `sweep${randomBytes(3).toString("hex")}`;
    const rows = [kept({ namespace: ns }), kept({ namespace: ns }), kept({ namespace: ns }), kept({ namespace: ns })];
    const elsewhere = kept({ namespace: `${ns}x` });
    await repo().keepMany([...rows, elsewhere], 168);
    for (const r of [...rows.slice(0, 3), elsewhere]) await expire(r.key);
    const q = { namespace: ns, accountId: "acct_a", methodKey: METHOD, keys: rows.map((r) => r.key) };
    expect([...(await repo().find(q)).keys()]).toEqual([rows[3]!.key]);

    expect(await repo().deleteExpired(ns, 2)).toBe(2);
    expect(await repo().deleteExpired(ns, 2)).toBe(1);
    expect(await repo().deleteExpired(ns, 2)).toBe(0);
    const left = await t.db.selectFrom("kept_evaluations").select(["namespace", "key"]).where("namespace", "in", [ns, `${ns}x`]).execute();
    expect(left.map((r) => r.key).sort()).toEqual([rows[3]!.key, elsewhere.key].sort());
  });

  it("keeps nothing for an empty write and finds nothing for no keys", async () => {
    await repo().keepMany([], 168);
    expect(await repo().find({ namespace: "", accountId: "acct_a", methodKey: METHOD, keys: [] })).toEqual(new Map());
  });
});
