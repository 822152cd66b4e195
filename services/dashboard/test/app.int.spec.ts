import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleLimitsRepository } from "@adrank/db/repositories";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { createLogger, createSecretBox, webhookSecretBox } from "@adrank/runtime";
import type { FastifyInstance } from "fastify";
import { buildDashboard } from "../src/app.ts";
import { createLimitCounters } from "../src/limit-counters.ts";
import { createSignInLimiter } from "../src/sign-in-limiter.ts";
import { createSignUpLimiter, type SignUpLimits } from "../src/sign-up-limiter.ts";

// The console's API on a real Postgres schema, with a ledger that records grants.

let database: TestDatabase;
let app: FastifyInstance;
const grants: Array<{ accountId: string; credits: number }> = [];

/** One console process on `db`; several on one database stand for replicas. */
function buildConsole(db: TestDatabase["db"], opts: { signUp?: Partial<SignUpLimits>; trustProxyHops?: number } = {}) {
  const counters = createLimitCounters(consoleLimitsRepository(db));
  return buildDashboard({
    db,
    ledger: {
      grant: async (g: { accountId: string; credits: number }) => {
        grants.push(g);
        return { ok: true, value: { available: g.credits } } as never;
      },
      balance: async () => ({ ok: true, value: { available: 0 } }) as never,
    },
    ledgerStream: "LEDGER",
    logger: createLogger("dashboard-test", "silent"),
    box: createSecretBox("x".repeat(40), "playground-keys"),
    webhookSecretBox: webhookSecretBox("k".repeat(40)),
    signInLimiter: createSignInLimiter(counters, { maxFailures: 3, windowMs: 15 * 60_000 }),
    // Room for every sign-up of this file from inject's one address; the limit tests set their own.
    signUpLimiter: createSignUpLimiter(counters, { perAddress: 100, global: 1_000, windowMs: 3_600_000, ...opts.signUp }),
    gatewayUrl: "http://127.0.0.1:9",
    signupCredits: 100,
    sessionTtlMs: 3_600_000,
    secureCookies: false,
    ...(opts.trustProxyHops === undefined ? {} : { trustProxyHops: opts.trustProxyHops }),
  });
}

beforeAll(async () => {
  database = await createTestDatabase("dash");
  app = await buildConsole(database.db);
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

  it("answers two sign-ups racing with one email with one account and a 409, never a 500 or an orphan account", async () => {
    const email = "twice@example.com";
    const both = await Promise.all([1, 2].map(() => app.inject({ method: "POST", url: "/console/api/signup", payload: { email, password: "a long password" } })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const accounts = await database.db.selectFrom("accounts").select("id").where("name", "=", email).execute();
    expect(accounts).toHaveLength(1);
    expect(grants.filter((g) => g.accountId === accounts[0]!.id)).toHaveLength(1);
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

  it("marks the playground's own key in the key list, and only that one", async () => {
    const user = await signUp("playground-key@example.com");
    await user.call("POST", "/keys", { name: "console playground" });
    // The gateway here is unreachable (502), but the playground has made its key by then.
    expect((await user.call("POST", "/playground/rank", { assets: [] })).statusCode).toBe(502);
    const keys = (await user.call("GET", "/keys")).json<{ keys: Array<{ name: string; playground: boolean }> }>().keys;
    expect(keys.map((k) => [k.name, k.playground]).sort()).toEqual([["console playground", false], ["console playground", true]]);
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
    expect(res.json().maxImagesPerRank).toBe(20);
  });
});

describe("sign-up limits, malformed cookies and proxy hops", () => {
  const signUpAt = (target: FastifyInstance, email: string, forwardedFor: string) =>
    target.inject({ method: "POST", url: "/console/api/signup", remoteAddress: "10.0.0.2", headers: { "x-forwarded-for": forwardedFor }, payload: { email, password: "a long password" } });
  const accounts = async () => Number((await database.db.selectFrom("accounts").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);

  it("holds the per-address sign-up limit across two console instances and refuses with Retry-After, creating and granting nothing", async () => {
    // Two processes behind one proxy hop: the client address is the rightmost X-Forwarded-For entry.
    const one = await buildConsole(database.db, { signUp: { perAddress: 2 }, trustProxyHops: 1 });
    const two = await buildConsole(database.db, { signUp: { perAddress: 2 }, trustProxyHops: 1 });
    try {
      expect((await signUpAt(one, "limit1@example.com", "198.51.100.20")).statusCode).toBe(201);
      expect((await signUpAt(two, "limit2@example.com", "198.51.100.20")).statusCode).toBe(201);
      const before = { accounts: await accounts(), grants: grants.length };
      for (const [target, email] of [[one, "limit3@example.com"], [two, "limit4@example.com"]] as const) {
        const refused = await signUpAt(target, email, "198.51.100.20");
        expect(refused.statusCode).toBe(429);
        const wait = Number(refused.headers["retry-after"]);
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(3_600);
        expect(refused.json()).toEqual({ error: expect.stringMatching(/^Too many sign-ups from your network\. Try again in \d+ (second|minute)s?\.$/), retryAfter: wait });
        expect(refused.headers["set-cookie"]).toBeUndefined();
        expect(await database.db.selectFrom("dashboard_users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
      }
      expect({ accounts: await accounts(), grants: grants.length }).toEqual(before);
      // A forged entry to the left changes nothing; only the proxy's own entry counts.
      expect((await signUpAt(one, "limit5@example.com", "192.0.2.200, 198.51.100.20")).statusCode).toBe(429);
      expect((await signUpAt(two, "limit6@example.com", "198.51.100.20, 198.51.100.21")).statusCode).toBe(201);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("refuses every address once the global sign-up limit is reached, saying sign-up is paused", async () => {
    const own = await createTestDatabase("dashglobal");
    const busy = await buildConsole(own.db, { signUp: { perAddress: 10, global: 2 }, trustProxyHops: 1 });
    try {
      expect((await signUpAt(busy, "g1@example.com", "203.0.113.1")).statusCode).toBe(201);
      expect((await signUpAt(busy, "g2@example.com", "203.0.113.2")).statusCode).toBe(201);
      const refused = await signUpAt(busy, "g3@example.com", "203.0.113.3");
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toMatch(/^Sign-up is paused for a while: too many new accounts were made recently\. Try again in/);
      expect(await own.db.selectFrom("dashboard_users").select("email").orderBy("email").execute()).toEqual([{ email: "g1@example.com" }, { email: "g2@example.com" }]);
    } finally {
      await busy.close();
      await own.destroy();
    }
  });

  it("does not count a sign-up the form refuses (422) against the address", async () => {
    const strict = await buildConsole(database.db, { signUp: { perAddress: 1 }, trustProxyHops: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const weak = await strict.inject({ method: "POST", url: "/console/api/signup", remoteAddress: "10.0.0.2", headers: { "x-forwarded-for": "198.51.100.30" }, payload: { email: "weak2@example.com", password: "short" } });
        expect(weak.statusCode).toBe(422);
      }
      expect((await signUpAt(strict, "strong@example.com", "198.51.100.30")).statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  });

  it("answers a malformed session cookie with 400 and clears it, instead of failing with 500", async () => {
    for (const [method, url] of [["GET", "/console/api/me"], ["POST", "/console/api/signout"], ["GET", "/console/api/keys"]] as const) {
      const res = await app.inject({ method, url, headers: { cookie: "adrank_session=%E0%A4%A" } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/session cookie could not be read/);
      expect(String(res.headers["set-cookie"])).toMatch(/^adrank_session=; .*Max-Age=0/);
    }
  });
});
