import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import type { FastifyInstance } from "fastify";
import { buildTestConsole } from "./support/test-console.ts";

// What the console does before anyone is signed in (issue 31): authentication and routing
// decide before a body is read, bodies are small but for the playground's, 401s and failed
// sign-ins are limited per address, and a known device signs in whatever others guessed.

const MiB = 1024 * 1024;
let database: TestDatabase;
let app: FastifyInstance;
let gateway: Server;
/** The bodies the stand-in gateway received. */
const forwarded: Buffer[] = [];

beforeAll(async () => {
  database = await createTestDatabase("dashanon");
  gateway = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      forwarded.push(Buffer.concat(chunks));
      res.writeHead(200, { "content-type": "application/json" }).end('{"ranked":true}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  app = await buildTestConsole(database.db, {
    gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
    trustProxyHops: 1,
    playgroundBodyLimitBytes: 2 * MiB,
    unauthenticatedLimits: { perAddress: 3, windowMs: 60_000 },
  });
});
afterAll(async () => {
  await app?.close();
  await new Promise((r) => gateway?.close(r));
  await database?.destroy();
});

/** A request from client address `from` (one trusted proxy hop). */
const from = (address: string, method: "GET" | "POST" | "PUT", url: string, opts: { payload?: string | object; headers?: Record<string, string> } = {}) =>
  app.inject({ method, url, remoteAddress: "10.0.0.2", headers: { "x-forwarded-for": address, ...(typeof opts.payload === "string" ? { "content-type": "application/json" } : {}), ...opts.headers }, ...(opts.payload === undefined ? {} : { payload: opts.payload }) });

const cookiesOf = (res: { headers: Record<string, unknown> }) => ([] as string[]).concat((res.headers["set-cookie"] as string | string[] | undefined) ?? []);
const valueOf = (cookies: string[], name: string) => cookies.map((c) => c.split(";")[0]!).find((c) => c.startsWith(`${name}=`));

async function signUp(email: string, password: string, address: string) {
  const res = await from(address, "POST", "/console/api/signup", { payload: { email, password } });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = valueOf(cookiesOf(res), "adrank_session")!;
  const me = (await from(address, "GET", "/console/api/me", { headers: { cookie } })).json<{ csrfToken: string }>();
  return { cookie, csrf: me.csrfToken, setCookies: cookiesOf(res) };
}

describe("before the body is read", () => {
  const big = `[${"1,".repeat(512 * 1024)}1]`; // 1 MiB of JSON, over the 64 KiB every form route allows

  it("answers 401 to a private route without a session, whatever body it carries", async () => {
    for (const [method, url] of [["POST", "/console/api/keys"], ["POST", "/console/api/playground/rank"], ["PUT", "/console/api/audiences/aud_x"]] as const) {
      const res = await from(`198.51.100.${url.length}`, method, url, { payload: big });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ error: "Sign in to continue." });
    }
  });

  it("answers 404 to an unknown route, in the API or not, before reading its body", async () => {
    const api = await from("198.51.100.60", "POST", "/console/api/no-such-route", { payload: big });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: "Not found." });
    expect((await from("198.51.100.60", "PUT", "/console/api/keys", { payload: big })).statusCode).toBe(404);
    expect((await from("198.51.100.60", "POST", "/anything-else", { payload: big })).statusCode).toBe(404);
  });

  it("refuses a public route's body over 64 KiB with 413 and the limit in words", async () => {
    const res = await from("198.51.100.61", "POST", "/console/api/signin", { payload: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: "The request body is too large: 64 KiB at most." });
  });

  it("answers a 50,000-character email with 422 at once: its length is checked before its shape", async () => {
    const started = performance.now();
    const res = await from("198.51.100.62", "POST", "/console/api/signin", { payload: { email: `a@${"a.".repeat(24_998)}@`, password: "whatever it is" } });
    expect(res.statusCode).toBe(422);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("the playground's large bodies", () => {
  it("forwards a signed-in user's body to the gateway byte for byte, up to its own limit, and JSON only", async () => {
    const user = await signUp("playground@example.com", "a long password", "198.51.100.70");
    const headers = { cookie: user.cookie, "x-csrf-token": user.csrf };
    const body = `{"assets":[{"url":"data:image/png;base64,${"A".repeat(MiB)}"}],  "extra" : "kept as sent"}`;
    const res = await from("198.51.100.70", "POST", "/console/api/playground/rank", { payload: body, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ranked: true });
    expect(forwarded.at(-1)!.toString()).toBe(body);
    const tooLarge = await from("198.51.100.70", "POST", "/console/api/playground/rank", { payload: `"${"A".repeat(3 * MiB)}"`, headers });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ error: "The request body is too large: 2 MiB at most." });
    const text = await from("198.51.100.70", "POST", "/console/api/playground/rank", { payload: "{}", headers: { ...headers, "content-type": "text/plain" } });
    expect(text.statusCode).toBe(415);
  });
});

describe("per-address limits on unauthenticated failures", () => {
  it("answers 429 with Retry-After to an address past its share of 401s, before looking its cookie up", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await from("203.0.113.80", "GET", "/console/api/keys", { headers: { cookie: `adrank_session=guess${i}` } })).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    const refused = await from("203.0.113.80", "GET", "/console/api/usage");
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    // The window is aligned to the minute, so a refusal at its first second waits a whole minute.
    expect(refused.json()).toEqual({ error: expect.stringMatching(/^Too many requests without a valid sign-in from your network\. Try again in (\d+ seconds?|1 minute)\.$/), retryAfter: Number(refused.headers["retry-after"]) });
    // Public routes and other addresses go on as before; the same /64 is the same address.
    expect((await from("203.0.113.80", "GET", "/console/api/vocabulary")).statusCode).toBe(200);
    expect((await from("203.0.113.81", "GET", "/console/api/keys")).statusCode).toBe(401);
  });

  it("lets the owner sign in from another address, and from the attacker's with their device cookie, while the guesser gets 429", async () => {
    const owner = await signUp("owner@example.com", "the owner's password", "198.51.100.90");
    // Sign-up and sign-in leave a known-device cookie that only the sign-in route receives.
    const deviceCookie = owner.setCookies.find((c) => c.startsWith("adrank_device="))!;
    expect(deviceCookie).toMatch(/; Path=\/console\/api\/signin; HttpOnly; SameSite=Strict; Max-Age=2592000$/);
    const device = valueOf(owner.setCookies, "adrank_device")!;
    const signIn = (address: string, password: string, cookie?: string) => from(address, "POST", "/console/api/signin", { payload: { email: "owner@example.com", password }, headers: cookie ? { cookie } : {} });

    const guesses = [];
    for (let i = 0; i < 5; i++) guesses.push((await signIn("203.0.113.90", `wrong guess ${i}`)).statusCode);
    expect(guesses).toEqual([401, 401, 401, 429, 429]);
    expect((await signIn("192.0.2.90", "the owner's password")).statusCode).toBe(200);
    const withDevice = await signIn("203.0.113.90", "the owner's password", device);
    expect(withDevice.statusCode).toBe(200);
    expect(valueOf(cookiesOf(withDevice), "adrank_device")).toBeDefined();
    const guessingOn = await signIn("203.0.113.90", "the owner's password");
    expect(guessingOn.statusCode).toBe(429);
    expect(Number(guessingOn.headers["retry-after"])).toBeGreaterThan(0);
    // Someone else's device cookie is no device cookie for this email.
    const stranger = await signUp("stranger@example.com", "the stranger's password", "198.51.100.91");
    expect((await signIn("203.0.113.90", "the owner's password", valueOf(stranger.setCookies, "adrank_device"))).statusCode).toBe(429);
  }, 30_000);
});
