import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { createLogger } from "@adrank/runtime";
import type { FastifyInstance } from "fastify";
import { buildDashboard } from "../src/app.ts";
import { createSecretBox } from "../src/secret-box.ts";
import { createSignInLimiter } from "../src/sign-in-limiter.ts";

// The console's API on a real Postgres schema, with a ledger that records grants.

let database: TestDatabase;
let app: FastifyInstance;
const grants: Array<{ accountId: string; credits: number }> = [];

beforeAll(async () => {
  database = await createTestDatabase("dash");
  app = await buildDashboard({
    db: database.db,
    ledger: {
      grant: async (g: { accountId: string; credits: number }) => {
        grants.push(g);
        return { ok: true, value: { available: g.credits } } as never;
      },
      balance: async () => ({ ok: true, value: { available: 0 } }) as never,
    },
    logger: createLogger("dashboard-test", "silent"),
    box: createSecretBox("x".repeat(40)),
    limiter: createSignInLimiter({ maxFailures: 3 }),
    gatewayUrl: "http://127.0.0.1:9",
    signupCredits: 100,
    sessionTtlMs: 3_600_000,
    secureCookies: false,
  });
});
afterAll(async () => {
  await app?.close();
  await database?.destroy();
});

/** A browser-like session: keeps the cookie and sends the CSRF token on changes. */
async function signUp(email: string, password = "a long password") {
  const res = await app.inject({ method: "POST", url: "/console/api/signup", payload: { email, password } });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = String(res.headers["set-cookie"]).split(";")[0]!;
  const me = (await app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).json<{ csrfToken: string; accountId: string }>();
  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object, extra: Record<string, string> = {}) =>
    app.inject({ method, url: `/console/api${url}`, headers: { cookie, "x-csrf-token": me.csrfToken, ...extra }, ...(payload ? { payload } : {}) });
  return { cookie, accountId: me.accountId, call, setCookie: String(res.headers["set-cookie"]) };
}

describe("console API", () => {
  it("signs up with a hashed password, an httpOnly SameSite cookie and sign-up credits", async () => {
    const user = await signUp("Ada@Example.com");
    expect(user.setCookie).toMatch(/HttpOnly/);
    expect(user.setCookie).toMatch(/SameSite=Strict/);
    const row = await database.db.selectFrom("dashboard_users").selectAll().where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain("a long password");
    expect(grants).toContainEqual(expect.objectContaining({ accountId: user.accountId, credits: 100 }));
    const again = await app.inject({ method: "POST", url: "/console/api/signup", payload: { email: "ada@example.com", password: "another long one" } });
    expect(again.statusCode).toBe(409);
    const weak = await app.inject({ method: "POST", url: "/console/api/signup", payload: { email: "weak@example.com", password: "short" } });
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toMatchObject({ field: "password" });
  });

  it("signs in and out; a wrong password is 401 and repeated failures are 429 with Retry-After", async () => {
    await signUp("grace@example.com", "the right password");
    const ok = await app.inject({ method: "POST", url: "/console/api/signin", payload: { email: "grace@example.com", password: "the right password" } });
    expect(ok.statusCode).toBe(200);
    const cookie = String(ok.headers["set-cookie"]).split(";")[0]!;
    expect((await app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).statusCode).toBe(200);
    const csrf = (await app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).json<{ csrfToken: string }>().csrfToken;
    expect((await app.inject({ method: "POST", url: "/console/api/signout", headers: { cookie, "x-csrf-token": csrf } })).statusCode).toBe(204);
    expect((await app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).statusCode).toBe(401);

    const wrong = () => app.inject({ method: "POST", url: "/console/api/signin", payload: { email: "grace@example.com", password: "not it at all" } });
    for (let i = 0; i < 3; i++) expect((await wrong()).statusCode).toBe(401);
    const limited = await wrong();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // Even the right password waits: the limiter answers before the password is checked.
    expect((await app.inject({ method: "POST", url: "/console/api/signin", payload: { email: "grace@example.com", password: "the right password" } })).statusCode).toBe(429);
  });

  it("counts failed sign-ins per address and ignores a forged X-Forwarded-For", async () => {
    // 3 failures per email, 12 per address in this app; each attempt uses a fresh email and claims a fresh address.
    const attempt = (i: number) =>
      app.inject({ method: "POST", url: "/console/api/signin", remoteAddress: "203.0.113.9", headers: { "x-forwarded-for": `198.51.100.${i}` }, payload: { email: `nobody${i}@example.com`, password: "not a real password" } });
    for (let i = 0; i < 12; i++) expect((await attempt(i)).statusCode).toBe(401);
    expect((await attempt(99)).statusCode).toBe(429);
  });

  it("refuses a state change without the CSRF token or from another origin", async () => {
    const user = await signUp("csrf@example.com");
    const noToken = await app.inject({ method: "POST", url: "/console/api/keys", headers: { cookie: user.cookie }, payload: { name: "x" } });
    expect(noToken.statusCode).toBe(403);
    const foreign = await user.call("POST", "/keys", { name: "x" }, { origin: "https://evil.example" });
    expect(foreign.statusCode).toBe(403);
    expect((await user.call("GET", "/keys")).json().keys).toEqual([]);
  });

  it("shows a new key once, then only its prefix and last four; revokes it", async () => {
    const user = await signUp("keys@example.com");
    const created = await user.call("POST", "/keys", { name: "ci" });
    expect(created.statusCode).toBe(201);
    const { key, id } = created.json<{ key: string; id: string }>();
    expect(key).toMatch(/^agk_live_/);
    const listed = (await user.call("GET", "/keys")).body;
    expect(listed).not.toContain(key);
    expect(listed).toContain(key.slice(-4));
    expect((await user.call("POST", `/keys/${id}/revoke`)).statusCode).toBe(200);
    expect((await user.call("GET", "/keys")).json().keys[0].revokedAt).not.toBeNull();
  });

  it("keeps every account's keys and audiences to itself", async () => {
    const owner = await signUp("owner@example.com");
    const stranger = await signUp("stranger@example.com");
    const key = (await owner.call("POST", "/keys", { name: "private" })).json<{ id: string }>();
    const audience = (await owner.call("POST", "/audiences", { name: "Private segment", demographics: { ageRange: "25-34" } })).json<{ id: string }>();
    expect((await stranger.call("POST", `/keys/${key.id}/revoke`)).statusCode).toBe(404);
    expect((await stranger.call("PUT", `/audiences/${audience.id}`, { name: "Taken" })).statusCode).toBe(404);
    expect((await stranger.call("DELETE", `/audiences/${audience.id}`)).statusCode).toBe(404);
    expect((await stranger.call("GET", "/keys")).body).not.toContain(key.id);
    expect((await stranger.call("GET", "/audiences")).body).not.toContain(audience.id);
    expect((await owner.call("GET", "/keys")).json().keys[0].revokedAt).toBeNull();
    expect((await owner.call("GET", "/audiences")).json().audiences[0].name).toBe("Private segment");
  });

  it("creates, edits and deletes audiences with the API's own validation", async () => {
    const user = await signUp("aud@example.com");
    const bad = await user.call("POST", "/audiences", { name: "X", demographics: { ageRange: "12-17" } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe("demographics.ageRange");
    const made = (await user.call("POST", "/audiences", { name: "Runners" })).json<{ id: string }>();
    const edited = await user.call("PUT", `/audiences/${made.id}`, { name: "Trail runners", demographics: { ageRange: "35-44" } });
    expect(edited.json()).toMatchObject({ name: "Trail runners", demographics: { ageRange: "35-44" } });
    expect((await user.call("DELETE", `/audiences/${made.id}`)).statusCode).toBe(204);
    expect((await user.call("GET", "/audiences")).json().audiences).toEqual([]);
  });

  it("answers 401 on every account route without a session, and sends security headers", async () => {
    for (const url of ["/keys", "/audiences", "/usage", "/me"]) expect((await app.inject({ method: "GET", url: `/console/api${url}` })).statusCode).toBe(401);
    const res = await app.inject({ method: "GET", url: "/console/api/vocabulary" });
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json().goals).toContain("purchase-intent");
  });
});
