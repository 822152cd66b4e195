import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsRepository, apiKeysRepository, DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT, KeyLimitReachedError } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbkeys");
});
afterAll(async () => {
  await t?.destroy();
});

let n = 0;
const keyOf = (accountId: string) => ({ accountId, name: `key ${++n}`, lookup: `agk_live_cap${n}`, hash: `hash${n}`, lastFour: "abcd" });
const activeKeys = async (accountId: string) => (await apiKeysRepository(t.db).listForAccount(accountId)).filter((k) => k.revokedAt === null).length;

describe("api keys repository: active keys per account", () => {
  it("allows 20 active keys by default, refuses the 21st, and counts a revoked key out", async () => {
    expect(DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT).toBe(20);
    const keys = apiKeysRepository(t.db);
    const account = await accountsRepository(t.db).create("twenty");
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await keys.create(keyOf(account.id)));
    const refused = await keys.create(keyOf(account.id)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(KeyLimitReachedError);
    expect((refused as KeyLimitReachedError).limit).toBe(20);
    expect(await activeKeys(account.id)).toBe(20);
    // Another account is not affected.
    const other = await accountsRepository(t.db).create("other");
    await keys.create(keyOf(other.id));
    await keys.revoke(made[0]!.id, new Date());
    await keys.create(keyOf(account.id));
    expect(await activeKeys(account.id)).toBe(20);
  });

  it("lets only one of many creates at once take the last place", async () => {
    const keys = apiKeysRepository(t.db, { maxActiveKeys: 3 });
    // Several rounds: without the lock, creates that count before either inserts both pass.
    for (let round = 0; round < 15; round++) {
      const account = await accountsRepository(t.db).create(`racing ${round}`);
      await keys.create(keyOf(account.id));
      await keys.create(keyOf(account.id));
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => keys.create(keyOf(account.id))));
      expect(results.filter((r) => r.status === "fulfilled"), `round ${round}`).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(KeyLimitReachedError);
      expect(await activeKeys(account.id)).toBe(3);
    }
  });
});
