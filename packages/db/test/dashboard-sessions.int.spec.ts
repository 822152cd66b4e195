import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardSessionsRepository, dashboardUsersRepository } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

let t: TestDatabase;
let user: { userId: string; accountId: string };
beforeAll(async () => {
  t = await createTestDatabase("dbsessions");
  user = (await dashboardUsersRepository(t.db).createWithAccount({ email: "ada@example.com", passwordHash: "h" }))!;
});
afterAll(async () => {
  await t?.destroy();
});

const HOUR = 3_600_000;

/** Sessions judged by a clock the test moves. */
function sessionsAt(startAt: string) {
  const clock = { at: new Date(startAt) };
  return { clock, sessions: dashboardSessionsRepository(t.db, HOUR, () => clock.at) };
}

describe("dashboard sessions repository", () => {
  it("finds the signed-in user by the token, and stores only the token's sha256", async () => {
    const { sessions } = sessionsAt("2030-01-01T10:00:00Z");
    const { token, expiresAt } = await sessions.create(user.userId);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(expiresAt).toEqual(new Date("2030-01-01T11:00:00Z"));
    const found = await sessions.find(token);
    expect(found).toEqual({ userId: user.userId, email: "ada@example.com", accountId: user.accountId, csrfToken: expect.stringMatching(/^[\w-]{32}$/) });
    const rows = await t.db.selectFrom("dashboard_sessions").select(["token_hash", "expires_at"]).where("user_id", "=", user.userId).execute();
    expect(rows.map((r) => r.token_hash)).toContain(createHash("sha256").update(token).digest("hex"));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    expect(await sessions.find("not-a-token")).toBeNull();
  });

  it("gives each session its own CSRF token", async () => {
    const { sessions } = sessionsAt("2030-01-02T10:00:00Z");
    const a = await sessions.find((await sessions.create(user.userId)).token);
    const b = await sessions.find((await sessions.create(user.userId)).token);
    expect(a?.csrfToken).not.toBe(b?.csrfToken);
  });

  it("no longer finds a session at or after its expiry, and prunes only expired sessions", async () => {
    const { clock, sessions } = sessionsAt("2030-01-03T10:00:00Z");
    const old = await sessions.create(user.userId);
    clock.at = new Date("2030-01-03T10:30:00Z");
    const fresh = await sessions.create(user.userId);
    clock.at = new Date("2030-01-03T11:00:00Z");
    expect(await sessions.find(old.token)).toBeNull();
    expect(await sessions.find(fresh.token)).not.toBeNull();
    await sessions.prune();
    const left = await t.db.selectFrom("dashboard_sessions").select("token_hash").execute();
    const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
    expect(left.map((r) => r.token_hash)).not.toContain(hashOf(old.token));
    expect(left.map((r) => r.token_hash)).toContain(hashOf(fresh.token));
  });

  it("signs a session out", async () => {
    const { sessions } = sessionsAt("2030-01-04T10:00:00Z");
    const { token } = await sessions.create(user.userId);
    const other = await sessions.create(user.userId);
    await sessions.destroy(token);
    expect(await sessions.find(token)).toBeNull();
    expect(await sessions.find(other.token)).not.toBeNull();
  });
});
