import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsRepository, apiKeysRepository, playgroundKeysRepository } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbplay");
});
afterAll(async () => {
  await t?.destroy();
});

let n = 0;
const newKey = (accountId: string) => apiKeysRepository(t.db).create({ accountId, name: "console playground", lookup: `agk_live_test${++n}`, hash: `hash${n}`, lastFour: "abcd" });

describe("playground keys repository", () => {
  it("has none until one is saved, then tells whether the user revoked it", async () => {
    const keys = playgroundKeysRepository(t.db);
    const account = await accountsRepository(t.db).create("play@example.com");
    expect(await keys.findForAccount(account.id)).toBeNull();
    const key = await newKey(account.id);
    await keys.save(account.id, key.id, "sealed-1");
    expect(await keys.findForAccount(account.id)).toEqual({ encryptedKey: "sealed-1", revoked: false });
    await apiKeysRepository(t.db).revoke(key.id, new Date());
    expect(await keys.findForAccount(account.id)).toEqual({ encryptedKey: "sealed-1", revoked: true });
  });

  it("replaces an account's key with a new one, and keeps each account's to itself", async () => {
    const keys = playgroundKeysRepository(t.db);
    const owner = await accountsRepository(t.db).create("owner@example.com");
    const other = await accountsRepository(t.db).create("other@example.com");
    const first = await newKey(owner.id);
    await keys.save(owner.id, first.id, "sealed-first");
    await apiKeysRepository(t.db).revoke(first.id, new Date());
    const second = await newKey(owner.id);
    await keys.save(owner.id, second.id, "sealed-second");
    expect(await keys.findForAccount(owner.id)).toEqual({ encryptedKey: "sealed-second", revoked: false });
    expect(await t.db.selectFrom("dashboard_playground_keys").select("key_id").where("account_id", "=", owner.id).execute()).toEqual([{ key_id: second.id }]);
    expect(await keys.findForAccount(other.id)).toBeNull();
  });
});
