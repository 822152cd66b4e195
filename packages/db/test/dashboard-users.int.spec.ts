import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../src/connect.ts";
import { accountsRepository, dashboardUsersRepository } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbusers");
});
afterAll(async () => {
  await t?.destroy();
});

const accountsNamed = async (name: string) => t.db.selectFrom("accounts").select("id").where("name", "=", name).execute();

describe("dashboard users repository", () => {
  it("creates the account and its user together, and finds the user's credentials by email", async () => {
    const users = dashboardUsersRepository(t.db);
    expect(await users.exists("ada@example.com")).toBe(false);
    const created = await users.createWithAccount({ email: "ada@example.com", passwordHash: "scrypt$hash" });
    expect(created).toEqual({ userId: expect.stringMatching(/^usr_[0-9a-f]{20}$/), accountId: expect.stringMatching(/^acct_[0-9a-f]{20}$/) });
    expect(await accountsRepository(t.db).find(created!.accountId)).toEqual({ id: created!.accountId, name: "ada@example.com" });
    expect(await users.exists("ada@example.com")).toBe(true);
    expect(await users.findCredentials("ada@example.com")).toEqual({ userId: created!.userId, passwordHash: "scrypt$hash" });
    expect(await users.findCredentials("nobody@example.com")).toBeNull();
  });

  it("answers null for a taken email and leaves no orphan account", async () => {
    const users = dashboardUsersRepository(t.db);
    expect(await users.createWithAccount({ email: "grace@example.com", passwordHash: "h1" })).not.toBeNull();
    expect(await users.createWithAccount({ email: "grace@example.com", passwordHash: "h2" })).toBeNull();
    expect(await accountsNamed("grace@example.com")).toHaveLength(1);
    expect((await users.findCredentials("grace@example.com"))?.passwordHash).toBe("h1");
  });

  it("gives one of two racing sign-ups with one email the account, the other null", async () => {
    const users = dashboardUsersRepository(t.db);
    const both = await Promise.all([1, 2].map((i) => users.createWithAccount({ email: "race@example.com", passwordHash: `h${i}` })));
    expect(both.filter((r) => r !== null)).toHaveLength(1);
    expect(await accountsNamed("race@example.com")).toHaveLength(1);
  });

  it("passes on failures other than a taken email", async () => {
    const unreachable = createDb({ connectionString: "postgres://postgres@127.0.0.1:1/test", max: 1 });
    try {
      await expect(dashboardUsersRepository(unreachable).createWithAccount({ email: "x@example.com", passwordHash: "h" })).rejects.toThrow();
    } finally {
      await unreachable.destroy();
    }
  });
});
