import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleLimitsRepository } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dblimits");
});
afterAll(async () => {
  await t?.destroy();
});

const window = (start: string, minutes: number) => ({ start: new Date(start), end: new Date(Date.parse(start) + minutes * 60_000) });
const countOf = async (key: string, start: string) =>
  (await t.db.selectFrom("dashboard_limit_counters").select("count").where("key", "=", key).where("window_start", "=", new Date(start)).executeTakeFirst())?.count;

describe("console limits repository", () => {
  it("counts per key and window, returning the count including this attempt", async () => {
    const limits = consoleLimitsRepository(t.db);
    const w = window("2030-01-01T10:00:00Z", 15);
    expect(await limits.increment("a", w)).toBe(1);
    expect(await limits.increment("a", w)).toBe(2);
    expect(await limits.increment("b", w)).toBe(1);
    expect(await limits.increment("a", window("2030-01-01T10:15:00Z", 15))).toBe(1);
    expect(await countOf("a", "2030-01-01T10:00:00Z")).toBe(2);
  });

  it("hands out every count once when many increments race", async () => {
    const limits = consoleLimitsRepository(t.db);
    const w = window("2030-01-02T10:00:00Z", 60);
    const counts = await Promise.all(Array.from({ length: 25 }, () => limits.increment("race", w)));
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it("takes an attempt back from one window only, never below zero", async () => {
    const limits = consoleLimitsRepository(t.db);
    const w = window("2030-01-03T10:00:00Z", 60);
    const next = window("2030-01-03T11:00:00Z", 60);
    await limits.increment("back", w);
    await limits.increment("back", next);
    await limits.decrement("back", w.start);
    await limits.decrement("back", w.start);
    expect(await countOf("back", "2030-01-03T10:00:00Z")).toBe(0);
    expect(await countOf("back", "2030-01-03T11:00:00Z")).toBe(1);
    await limits.decrement("never-counted", w.start);
    expect(await countOf("never-counted", "2030-01-03T10:00:00Z")).toBeUndefined();
  });

  it("clears every window of one key and no other key", async () => {
    const limits = consoleLimitsRepository(t.db);
    await limits.increment("clear-me", window("2030-01-04T10:00:00Z", 60));
    await limits.increment("clear-me", window("2030-01-04T11:00:00Z", 60));
    await limits.increment("keep-me", window("2030-01-04T10:00:00Z", 60));
    await limits.clear("clear-me");
    expect(await t.db.selectFrom("dashboard_limit_counters").select("key").where("key", "in", ["clear-me", "keep-me"]).execute()).toEqual([{ key: "keep-me" }]);
  });

  it("prunes the windows that ended at or before a moment, and says how many", async () => {
    const own = await createTestDatabase("dblimitsprune");
    try {
      const limits = consoleLimitsRepository(own.db);
      await limits.increment("p", window("2030-01-05T10:00:00Z", 15)); // ends 10:15
      await limits.increment("p", window("2030-01-05T10:15:00Z", 15)); // ends 10:30
      await limits.increment("q", window("2030-01-05T10:00:00Z", 60)); // ends 11:00
      expect(await limits.pruneEnded(new Date("2030-01-05T10:14:59Z"))).toBe(0);
      expect(await limits.pruneEnded(new Date("2030-01-05T10:30:00Z"))).toBe(2);
      expect(await own.db.selectFrom("dashboard_limit_counters").select("key").execute()).toEqual([{ key: "q" }]);
    } finally {
      await own.destroy();
    }
  });
});
