import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outcomesRepository, requestsRepository, type NewOutcome } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Observed outcomes against a real PostgreSQL: one value per (account, request, asset,
// metric), upserts that say what they changed (also when two identical batches race),
// reads through the owner only, and the stored rankings the gateway checks outcomes against.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dboutcomes");
});
afterAll(async () => {
  await t?.destroy();
});

const repo = () => outcomesRepository(t.db);
const ranAt = new Date("2026-11-20T10:00:00.000Z");

function outcome(over: Partial<NewOutcome> = {}): NewOutcome {
  return { requestId: randomUUID(), assetId: "hero", metric: "ctr", value: 0.031, impressions: 12_000, goal: "purchase-intent", score: 3.9, scoreBeforeRefine: 3.8, simulated: true, rank: 1, pAboveNext: 0.73, requestCreatedAt: ranAt, ...over };
}

/** Moves every stored updated_at of the account back, so a later write is visibly later. */
const ageRows = (accountId: string) => sql`update outcomes set updated_at = updated_at - interval '1 hour' where account_id = ${accountId}`.execute(t.db);

describe("outcomes repository: record", () => {
  it("creates new rows and returns them in input order with the ranking's copy", async () => {
    const request = randomUUID();
    const items = [outcome({ requestId: request, assetId: "b", value: 2 }), outcome({ requestId: request, assetId: "a", value: 1, impressions: null, simulated: false })];
    const recorded = await repo().record("acct_create", items);
    expect(recorded.map((r) => [r.assetId, r.change, r.value, r.impressions])).toEqual([
      ["b", "created", 2, 12_000],
      ["a", "created", 1, null],
    ]);
    expect(recorded[1]).toMatchObject({ requestId: request, metric: "ctr", goal: "purchase-intent", score: 3.9, scoreBeforeRefine: 3.8, simulated: false, rank: 1, pAboveNext: 0.73, requestCreatedAt: ranAt });
    expect(recorded[0]!.recordedAt).toBeInstanceOf(Date);
    expect(typeof recorded[0]!.impressions).toBe("number");
  });

  it("says unchanged for the same value and impressions without moving recordedAt, and updated for a new value or new impressions", async () => {
    const first = outcome({ assetId: "x" });
    const second = outcome({ assetId: "y" });
    const third = outcome({ assetId: "z" });
    await repo().record("acct_upsert", [first, second, third]);
    await ageRows("acct_upsert");
    const before = await repo().listForAccount("acct_upsert");

    const again = await repo().record("acct_upsert", [first, { ...second, value: 0.05 }, { ...third, impressions: 13_000 }]);
    expect(again.map((r) => r.change)).toEqual(["unchanged", "updated", "updated"]);
    const stamp = (assetId: string) => before.find((r) => r.assetId === assetId)!.recordedAt.getTime();
    expect(again[0]!.recordedAt.getTime()).toBe(stamp("x"));
    expect(again[1]!.recordedAt.getTime()).toBeGreaterThan(stamp("y"));
    expect(again[1]!.value).toBe(0.05);
    expect(again[2]!.impressions).toBe(13_000);

    const after = await repo().listForAccount("acct_upsert");
    expect(after.map((r) => [r.assetId, r.value, r.impressions]).sort()).toEqual([
      ["x", 0.031, 12_000],
      ["y", 0.05, 12_000],
      ["z", 0.031, 13_000],
    ]);
    // Going back to no impressions is a change too.
    expect((await repo().record("acct_upsert", [{ ...first, impressions: null }]))[0]!.change).toBe("updated");
  });

  it("keeps one row per metric: the same asset has a ctr and a conversion_rate", async () => {
    const base = outcome({ assetId: "m" });
    const recorded = await repo().record("acct_metrics", [base, { ...base, metric: "conversion_rate", value: 0.004 }]);
    expect(recorded.map((r) => r.change)).toEqual(["created", "created"]);
    expect((await repo().listForAccount("acct_metrics")).map((r) => r.metric)).toEqual(["conversion_rate", "ctr"]);
  });

  it("keeps accounts apart: the same request, asset and metric under two accounts are two rows", async () => {
    const shared = outcome({ assetId: "same" });
    expect((await repo().record("acct_iso_1", [shared]))[0]!.change).toBe("created");
    expect((await repo().record("acct_iso_2", [{ ...shared, value: 9 }]))[0]!.change).toBe("created");
    expect((await repo().listForAccount("acct_iso_1")).map((r) => r.value)).toEqual([0.031]);
    expect((await repo().listForAccount("acct_iso_2")).map((r) => r.value)).toEqual([9]);
  });

  it("creates once when two identical batches race; the other says unchanged", async () => {
    for (let round = 0; round < 5; round++) {
      const accountId = `acct_race_${round}`;
      const batch = [outcome({ assetId: "a" }), outcome({ assetId: "b" })];
      const [one, two] = await Promise.all([repo().record(accountId, batch), repo().record(accountId, batch)]);
      const changes = [...one!.map((r) => r.change), ...two!.map((r) => r.change)].sort();
      expect(changes).toEqual(["created", "created", "unchanged", "unchanged"]);
      expect(await repo().listForAccount(accountId)).toHaveLength(2);
    }
  });

  it("writes nothing when the batch fails part-way", async () => {
    const good = outcome({ assetId: "good" });
    // A goal the column refuses (null) fails the one statement: the good row must not stay.
    const bad = { ...outcome({ assetId: "bad" }), goal: null as unknown as string };
    await expect(repo().record("acct_atomic", [good, bad])).rejects.toThrow();
    expect(await repo().listForAccount("acct_atomic")).toEqual([]);
  });

  it("refuses a batch that repeats a key instead of half-recording it", async () => {
    const item = outcome();
    await expect(repo().record("acct_repeat", [item, { ...item, value: 2 }])).rejects.toThrow(/twice/);
    expect(await repo().listForAccount("acct_repeat")).toEqual([]);
  });

  it("records 500 outcomes in one call", async () => {
    const request = randomUUID();
    const items = Array.from({ length: 500 }, (_, i) => outcome({ requestId: request, assetId: `a${String(i).padStart(3, "0")}`, value: i }));
    const recorded = await repo().record("acct_many", items);
    expect(recorded.map((r) => r.value)).toEqual(items.map((o) => o.value));
    expect(new Set(recorded.map((r) => r.change))).toEqual(new Set(["created"]));
  });
});

describe("outcomes repository: listForAccount", () => {
  it("filters by metric and by goal, sorted by metric, goal, request and asset", async () => {
    const account = "acct_list";
    const [r1, r2] = [randomUUID(), randomUUID()].sort();
    await repo().record(account, [
      outcome({ requestId: r2, assetId: "b", metric: "ctr", goal: "purchase-intent" }),
      outcome({ requestId: r1, assetId: "a", metric: "ctr", goal: "engagement" }),
      outcome({ requestId: r1, assetId: "a", metric: "cvr", goal: "engagement" }),
      outcome({ requestId: r1, assetId: "b", metric: "ctr", goal: "purchase-intent" }),
    ]);
    const all = await repo().listForAccount(account);
    expect(all.map((r) => [r.metric, r.goal, r.requestId, r.assetId])).toEqual([
      ["ctr", "engagement", r1, "a"],
      ["ctr", "purchase-intent", r1, "b"],
      ["ctr", "purchase-intent", r2, "b"],
      ["cvr", "engagement", r1, "a"],
    ]);
    expect((await repo().listForAccount(account, { metric: "cvr" })).map((r) => r.metric)).toEqual(["cvr"]);
    expect((await repo().listForAccount(account, { goal: "purchase-intent" })).map((r) => r.assetId)).toEqual(["b", "b"]);
    expect(await repo().listForAccount(account, { metric: "ctr", goal: "engagement" })).toHaveLength(1);
    expect(await repo().listForAccount(account, { metric: "nothing" })).toEqual([]);
    expect(await repo().listForAccount("acct_nobody")).toEqual([]);
  });
});

describe("outcomes repository: findRequestResults", () => {
  it("finds the account's own stored requests with their state and result text, and nothing of another account's", async () => {
    const requests = requestsRepository(t.db);
    const mine = randomUUID();
    const running = randomUUID();
    const theirs = randomUUID();
    const body = JSON.stringify({ request_id: mine, ranked: [{ asset_id: "a", score: 4.2 }], errors: [], summary: { goal: "engagement" } });
    const base = { keyId: "key_1", fingerprint: "-", progressTotal: 1 };
    await requests.recordFinished({ ...base, requestId: mine, accountId: "acct_find", operation: "rank", createdAt: ranAt }, { status: 200, headers: {}, body });
    await requests.start({ ...base, requestId: running, accountId: "acct_find", operation: "rank", mode: "async", leaseOwner: "gw", leaseMs: 10_000 }, null, 24);
    await requests.recordFinished({ ...base, requestId: theirs, accountId: "acct_other", operation: "pairwise" }, { status: 200, headers: {}, body: "{}" });

    const found = await repo().findRequestResults("acct_find", [mine, running, theirs, randomUUID(), mine]);
    expect([...found.keys()].sort()).toEqual([mine, running].sort());
    expect(found.get(mine)).toEqual({ requestId: mine, operation: "rank", state: "succeeded", createdAt: ranAt, resultBody: body });
    expect(found.get(running)).toMatchObject({ state: "running", resultBody: null });
    expect((await repo().findRequestResults("acct_other", [theirs])).get(theirs)).toMatchObject({ operation: "pairwise", state: "succeeded" });
    expect((await repo().findRequestResults("acct_find", [])).size).toBe(0);
  });

  it("gives a result with stored images as JSON that parses, the image left out", async () => {
    const requestId = randomUUID();
    const image = `data:image/png;base64,${randomBytes(900).toString("base64")}`;
    const body = JSON.stringify({ request_id: requestId, ranked: [{ asset_url: image, asset_id: "pic", score: 3.3 }], errors: [], summary: { goal: "engagement" } });
    await requestsRepository(t.db).recordFinished({ keyId: "key_1", fingerprint: "-", progressTotal: 1, requestId, accountId: "acct_images", operation: "rank" }, { status: 200, headers: {}, body });
    const text = (await repo().findRequestResults("acct_images", [requestId])).get(requestId)!.resultBody!;
    expect(text).not.toContain(image.slice(0, 100));
    const parsed = JSON.parse(text) as { ranked: Array<{ asset_url: string; asset_id: string; score: number }> };
    expect(parsed.ranked[0]).toMatchObject({ asset_id: "pic", score: 3.3 });
    expect(parsed.ranked[0]!.asset_url.length).toBeLessThan(100);
  });
});
