import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { newDeliveryId, requestsRepository, webhooksRepository } from "@adrank/db/repositories";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { webhookSecretBox } from "@adrank/runtime";
import type { FastifyInstance } from "fastify";
import { buildTestConsole } from "./support/test-console.ts";

// The console's request history and webhook routes on a real Postgres schema. Requests and
// deliveries are written with the gateway's own repositories, as the gateway writes them.

let database: TestDatabase;
let app: FastifyInstance;
let requests: ReturnType<typeof requestsRepository>;
let webhooks: ReturnType<typeof webhooksRepository>;
/** ADRANK_SECRETS_KEY's box, as the console and the gateway both make it. */
const webhookBox = webhookSecretBox("k".repeat(40));

beforeAll(async () => {
  database = await createTestDatabase("dashreq");
  requests = requestsRepository(database.db);
  webhooks = webhooksRepository(database.db, webhookBox);
  app = await buildTestConsole(database.db, { webhookSecretBox: webhookBox });
});
afterAll(async () => {
  await app?.close();
  await database?.destroy();
});

/** A signed-in browser: keeps the cookie and sends the CSRF token on changes. */
async function signUp(email: string) {
  const res = await app.inject({ method: "POST", url: "/console/api/signup", payload: { email, password: "a long password" } });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = String(res.headers["set-cookie"]).split(";")[0]!;
  const me = (await app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).json<{ csrfToken: string; accountId: string }>();
  const call = (method: "GET" | "POST", url: string, extra: Record<string, string> = {}) => app.inject({ method, url: `/console/api${url}`, headers: { cookie, "x-csrf-token": me.csrfToken, ...extra } });
  return { accountId: me.accountId, call };
}

/** A finished synchronous rank, as the gateway records one without an Idempotency-Key. */
async function recordRank(accountId: string, body: string, total = 3) {
  const requestId = randomUUID();
  await requests.recordFinished({ requestId, accountId, keyId: "key_test", operation: "rank", fingerprint: "f", progressTotal: total }, { status: 200, headers: { "content-type": "application/json" }, body });
  return requestId;
}

/** An asynchronous request, running under a live lease. */
async function startAsync(accountId: string, operation: "rank" | "pairwise", total: number, webhookUrl?: string) {
  const requestId = randomUUID();
  const claim = await requests.start(
    { requestId, accountId, keyId: "key_test", operation, mode: "async", fingerprint: randomUUID(), progressTotal: total, leaseOwner: "gw-test", leaseMs: 60_000, requestBody: "{}", acceptedBody: "{}", ...(webhookUrl ? { webhookUrl } : {}) },
    null,
    24,
  );
  expect(claim.kind).toBe("claimed");
  return requestId;
}

describe("request history", () => {
  it("answers 401 on every request and webhook route without a session", async () => {
    const id = randomUUID();
    for (const url of ["/requests", `/requests/${id}`, `/requests/${id}/result`, "/webhooks/secret", "/webhooks/deliveries"]) {
      expect((await app.inject({ method: "GET", url: `/console/api${url}` })).statusCode, url).toBe(401);
    }
    for (const url of ["/webhooks/secret", "/webhooks/secret/rotate"]) expect((await app.inject({ method: "POST", url: `/console/api${url}` })).statusCode, url).toBe(401);
  });

  it("shows a request with its state, progress and exact stored result; another account's is 404 like an unknown id", async () => {
    const owner = await signUp("history@example.com");
    const stranger = await signUp("history-stranger@example.com");
    // Spacing and "0.50" would not survive a parse and re-serialise: the console must pass the text on.
    const body = '{"object":"rank","ranked":[{"rank":1,"asset_id":"a","score":0.50}],  "summary":{"credits_used":3}}';
    const done = await recordRank(owner.accountId, body);
    const running = await startAsync(owner.accountId, "pairwise", 5);
    await requests.setProgress(running, 2);

    const shown = await owner.call("GET", `/requests/${done}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ requestId: done, operation: "rank", mode: "sync", state: "succeeded", status: 200, progress: { done: 3, total: 3, unit: "assets" }, webhook: null, error: null, retentionDays: 30 });
    expect(shown.json().resultBody).toBe(body);

    const file = await owner.call("GET", `/requests/${done}/result`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(body);
    expect(file.headers["content-type"]).toMatch(/^application\/json/);
    expect(file.headers["content-disposition"]).toBe(`attachment; filename="adrank-rank-${done}.json"`);

    const inFlight = (await owner.call("GET", `/requests/${running}`)).json();
    expect(inFlight).toMatchObject({ state: "running", mode: "async", operation: "pairwise", status: null, progress: { done: 2, total: 5, unit: "pairs" }, stalled: false, resultBody: null });
    expect((await owner.call("GET", `/requests/${running}/result`)).statusCode).toBe(404);

    for (const url of [`/requests/${done}`, `/requests/${done}/result`, `/requests/${running}`, `/requests/${randomUUID()}`, "/requests/not-an-id"]) {
      const refused = await stranger.call("GET", url);
      expect(refused.statusCode, url).toBe(404);
      expect(refused.body).not.toContain("ranked");
    }
    expect((await stranger.call("GET", "/requests")).json().requests).toEqual([]);
  });

  it("lists the account's requests newest first, 50 a page, the next page before the last one's time", async () => {
    const user = await signUp("pages@example.com");
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push(await recordRank(user.accountId, `{"n":${i}}`));
    // One second apart, newest last: the order cannot depend on how fast the inserts ran.
    for (const [i, id] of ids.entries()) {
      await database.db.updateTable("api_requests").set({ created_at: new Date(Date.UTC(2030, 0, 1, 12, 0, i)) }).where("request_id", "=", id).execute();
    }
    const first = (await user.call("GET", "/requests")).json<{ requests: Array<{ requestId: string; createdAt: string; state: string; status: number; mode: string; webhookState: null }>; nextBefore: string | null; retentionDays: number }>();
    expect(first.requests).toHaveLength(50);
    expect(first.requests.map((r) => r.requestId)).toEqual(ids.slice(2).reverse());
    expect(first.requests[0]).toMatchObject({ state: "succeeded", status: 200, mode: "sync", webhookState: null, progress: { done: 3, total: 3, unit: "assets" } });
    expect(first.nextBefore).toBe(first.requests[49]!.createdAt);
    expect(first.retentionDays).toBe(30);
    const second = (await user.call("GET", `/requests?before=${encodeURIComponent(first.nextBefore!)}`)).json<{ requests: Array<{ requestId: string }>; nextBefore: string | null }>();
    expect(second.requests.map((r) => r.requestId)).toEqual([ids[1], ids[0]]);
    expect(second.nextBefore).toBeNull();

    const bad = await user.call("GET", "/requests?before=yesterday");
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe("before");
  });
});

describe("webhook secret and deliveries", () => {
  it("sends the pages' /docs links (the verifying help's among them) to the API reference", async () => {
    const res = await app.inject({ method: "GET", url: "/docs" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("http://127.0.0.1:9/docs");
  });

  const stored = (accountId: string) => database.db.selectFrom("webhook_secrets").selectAll().where("account_id", "=", accountId).executeTakeFirstOrThrow();
  /** The stored secret opened with the key the gateway shares; the row itself never holds it. */
  const storedSecret = async (accountId: string) => {
    const row = await stored(accountId);
    expect(JSON.stringify(row)).not.toContain("whsec_");
    return webhookBox.open(row.secret, accountId);
  };

  it("creates the signing secret once, uncached, and afterwards shows only its dates", async () => {
    const user = await signUp("secret@example.com");
    expect((await user.call("GET", "/webhooks/secret")).json()).toEqual({ secret: null, graceHours: 24 });
    // Rotation needs a secret to rotate; creation needs the CSRF token like every change.
    expect((await user.call("POST", "/webhooks/secret/rotate")).statusCode).toBe(404);
    expect((await user.call("POST", "/webhooks/secret", { "x-csrf-token": "forged" })).statusCode).toBe(403);

    const created = await user.call("POST", "/webhooks/secret");
    expect(created.statusCode).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const { secret } = created.json<{ secret: string }>();
    expect(secret).toMatch(/^whsec_[\w-]{40,}$/);
    expect(await storedSecret(user.accountId)).toBe(secret);
    expect(created.json()).toMatchObject({ createdAt: expect.any(String), rotatedAt: null, previousValidUntil: null });

    const info = await user.call("GET", "/webhooks/secret");
    expect(info.body).not.toContain(secret);
    expect(info.json().secret).toMatchObject({ createdAt: expect.any(String), rotatedAt: null });
    // A second "Create" never replaces the secret a receiver may already hold.
    expect((await user.call("POST", "/webhooks/secret")).statusCode).toBe(409);
    expect(await storedSecret(user.accountId)).toBe(secret);
  });

  it("rotates: the new secret is current and shown once, the old one signs alongside for 24 hours", async () => {
    const user = await signUp("rotate@example.com");
    const old = (await user.call("POST", "/webhooks/secret")).json<{ secret: string }>().secret;
    const rotated = await user.call("POST", "/webhooks/secret/rotate");
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers["cache-control"]).toBe("no-store");
    const fresh = rotated.json<{ secret: string; rotatedAt: string; previousValidUntil: string }>();
    expect(fresh.secret).toMatch(/^whsec_/);
    expect(fresh.secret).not.toBe(old);
    expect(await storedSecret(user.accountId)).toBe(fresh.secret);
    expect(webhookBox.open((await stored(user.accountId)).previous_secret!, user.accountId)).toBe(old);
    const graceMs = Date.parse(fresh.previousValidUntil) - Date.parse(fresh.rotatedAt);
    expect(graceMs).toBeGreaterThan(24 * 3_600_000 - 5_000);
    expect(graceMs).toBeLessThan(24 * 3_600_000 + 5_000);
    const info = await user.call("GET", "/webhooks/secret");
    expect(info.body).not.toContain(fresh.secret);
    expect(info.body).not.toContain(old);
    expect(info.json().secret).toEqual({ createdAt: expect.any(String), rotatedAt: fresh.rotatedAt, previousValidUntil: fresh.previousValidUntil });
  });

  it("lists the account's deliveries with every attempt, and links them to their request", async () => {
    const owner = await signUp("deliveries@example.com");
    const stranger = await signUp("deliveries-stranger@example.com");
    expect((await owner.call("GET", "/webhooks/deliveries")).json()).toEqual({ deliveries: [] });
    await owner.call("POST", "/webhooks/secret");
    const requestId = await startAsync(owner.accountId, "rank", 2, "https://hooks.example.com/adrank");
    const deliveryId = newDeliveryId();
    expect(await requests.finish(requestId, "gw-test", { state: "succeeded", response: { status: 200, headers: {}, body: '{"object":"rank"}' }, webhookDeliveryId: deliveryId })).toBe(true);
    const first = new Date(Date.now() - 20_000);
    const retryAt = new Date(Date.now() + 40_000);
    await webhooks.recordAttempt(deliveryId, { attempt: 1, attemptedAt: first, status: 500, error: null, durationMs: 31, delivered: false, nextAttemptAt: new Date(Date.now() - 1_000) });
    await webhooks.recordAttempt(deliveryId, { attempt: 2, attemptedAt: new Date(Date.now() - 1_000), status: null, error: "connection refused", durationMs: 4, delivered: false, nextAttemptAt: retryAt });

    const listed = (await owner.call("GET", "/webhooks/deliveries")).json<{ deliveries: unknown[] }>().deliveries;
    expect(listed).toEqual([
      {
        id: deliveryId,
        requestId,
        url: "https://hooks.example.com/adrank",
        state: "pending",
        attempts: 2,
        nextAttemptAt: retryAt.toISOString(),
        lastStatus: null,
        lastError: "connection refused",
        createdAt: expect.any(String),
        deliveredAt: null,
        history: [
          { attempt: 1, attemptedAt: first.toISOString(), status: 500, error: null, durationMs: 31 },
          { attempt: 2, attemptedAt: expect.any(String), status: null, error: "connection refused", durationMs: 4 },
        ],
      },
    ]);
    expect((await stranger.call("GET", "/webhooks/deliveries")).json()).toEqual({ deliveries: [] });

    // The request shows its webhook too, in the list and on its own page.
    const row = (await owner.call("GET", "/requests")).json<{ requests: Array<{ requestId: string; webhookState: string }> }>().requests.find((r) => r.requestId === requestId);
    expect(row?.webhookState).toBe("pending");
    expect((await owner.call("GET", `/requests/${requestId}`)).json().webhook).toEqual({ url: "https://hooks.example.com/adrank", state: "pending", attempts: 2 });
  });
});
