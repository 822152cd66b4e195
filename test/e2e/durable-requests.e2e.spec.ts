import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhooksRepository } from "@adrank/db/repositories";
import { DEVELOPMENT_SECRETS_KEY, webhookSecretBox } from "@adrank/runtime";
import { verifyWebhookSignature } from "@adrank/sdk";
import { makeSelfSignedCert, type TestCert } from "../../packages/images/test/support/self-signed-cert.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../services/gateway/test/webhooks/support/webhook-receiver.ts";
import { call } from "../support/http.ts";
import { responseValidator } from "../support/openapi-validator.ts";
import { creative } from "../support/png.ts";
import { freePort, startStack, type Account, type Stack } from "../support/stack.ts";

// Durable requests against the real services: stored results fetched again byte for byte,
// Idempotency-Key replays billed once, asynchronous requests with signed webhooks, and a
// gateway killed mid-request whose work another gateway takes over.

interface Raw {
  status: number;
  headers: Headers;
  text: string;
}

/** The exact bytes of an answer: byte-equality is the point. */
async function raw(baseUrl: string, method: string, path: string, key: string, json?: unknown, headers: Record<string, string> = {}): Promise<Raw> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(json === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const audience = { name: "Durable shoppers" };
const rankBody = (n = 2, variant = 1) => ({ assets: Array.from({ length: n }, (_, i) => ({ url: creative(variant + i), id: `a${i}` })), audience, refine_close_pairs: false });

describe("durable requests: stored results, idempotency, asynchronous requests and webhooks", () => {
  let stack: Stack;
  let cert: TestCert;
  let certDir: string;
  let validator: ReturnType<typeof responseValidator>;

  beforeAll(async () => {
    cert = makeSelfSignedCert();
    certDir = mkdtempSync(join(tmpdir(), "webhook-ca-"));
    writeFileSync(join(certDir, "ca.pem"), cert.cert);
    stack = await startStack({
      scorerEnv: { SIM_LATENCY_MS: "150" },
      gatewayEnv: {
        REQUEST_LEASE_MS: "2000",
        ASYNC_SWEEP_MS: "300",
        WEBHOOK_ALLOW_LOOPBACK: "true",
        WEBHOOK_CA_FILE: join(certDir, "ca.pem"),
        WEBHOOK_POLL_MS: "100",
        WEBHOOK_RETRY_BASE_MS: "300",
        WEBHOOK_RETRY_MAX_DELAY_MS: "600",
      },
    });
    validator = responseValidator((await call(stack.baseUrl, "GET", "/api/v1/openapi.json")).body);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  }, 60_000);

  const available = async (accountId: string) => {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };
  const conforms = (operationId: string, r: Raw) => {
    expect(validator.check(operationId, r.status, JSON.parse(r.text))).toBeNull();
    return r;
  };
  const waitFor = async <T>(what: string, probe: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v !== null) return v;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${stack.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it("GET /api/v1/requests/{id} answers a finished rank byte for byte, and 404 for unknown, malformed and other accounts' ids", async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const other = await stack.createAccountDirect({ credits: 0 });
    const posted = conforms("rankAssets", await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, rankBody(2)));
    expect(posted.status, stack.output()).toBe(200);
    const id = JSON.parse(posted.text).request_id as string;

    const fetched = conforms("getRequest", await raw(stack.baseUrl, "GET", `/api/v1/requests/${id}`, account.key));
    expect(fetched.status).toBe(200);
    expect(fetched.text).toBe(posted.text);
    expect(fetched.headers.get("x-request-id")).toBe(id);

    for (const [key, path] of [[other.key, `/api/v1/requests/${id}`], [account.key, `/api/v1/requests/${randomUUID()}`], [account.key, "/api/v1/requests/not-a-uuid"]] as const) {
      const missing = conforms("getRequest", await raw(stack.baseUrl, "GET", path, key));
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.text).error).toMatch(/No request with id/);
    }
    expect((await raw(stack.baseUrl, "GET", `/api/v1/requests/${id}`, "agk_live_nope")).status).toBe(401);
  });

  it("stores a data-URI image once, however many assets and requests carry it, and still answers byte-equal", async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const image = creative(41, 160, 160);
    const body = { assets: [{ url: image, id: "x" }, { url: image, id: "y" }], audience, refine_close_pairs: false };
    const first = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, body);
    const second = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, body);
    expect(first.status, stack.output()).toBe(200);
    expect(first.text).toContain(image);
    const ids = [JSON.parse(first.text).request_id, JSON.parse(second.text).request_id];
    const db = stack.database.db;
    const rows = await db.selectFrom("api_requests").select(["request_id", "result_body"]).where("request_id", "in", ids).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.result_body).not.toContain(image.slice(0, 200));
    const links = await db.selectFrom("api_request_images").select("image_name").where("request_id", "in", ids).execute();
    expect(new Set(links.map((l) => l.image_name)).size).toBe(1);
    expect((await raw(stack.baseUrl, "GET", `/api/v1/requests/${ids[0]}`, account.key)).text).toBe(first.text);
  });

  it("an Idempotency-Key replays the first answer byte for byte and bills once; another body or operation is 422; another account's key is its own", async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const other = await stack.createAccountDirect({ credits: 50 });
    const key = `order-${randomUUID()}`;
    const first = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, rankBody(2), { "Idempotency-Key": key });
    expect(first.status, stack.output()).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const afterFirst = await available(account.accountId);
    expect(afterFirst).toBe(48);

    // Same meaning, other key order: still the same request.
    const reordered = { refine_close_pairs: false, audience, assets: rankBody(2).assets };
    const replay = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, reordered, { "Idempotency-Key": key });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("x-request-id")).toBe(JSON.parse(first.text).request_id);
    expect(replay.headers.get("x-ratelimit-remaining")).toBe(first.headers.get("x-ratelimit-remaining"));
    expect(await available(account.accountId)).toBe(afterFirst);

    const changed = conforms("rankAssets", await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, rankBody(3), { "Idempotency-Key": key }));
    expect(changed.status).toBe(422);
    expect(JSON.parse(changed.text)).toMatchObject({ field: "Idempotency-Key", error: expect.stringMatching(/different request body/) });
    const pairwise = await raw(stack.baseUrl, "POST", "/api/v1/pairwise", account.key, { pairs: [{ pair_id: "p", a: { id: "a", image_url: creative(1) }, b: { id: "b", image_url: creative(2) } }], audience }, { "Idempotency-Key": key });
    expect(pairwise.status).toBe(422);
    expect(JSON.parse(pairwise.text).error).toMatch(/POST \/api\/v1\/rank/);

    const bad = conforms("rankAssets", await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, rankBody(1), { "Idempotency-Key": "has spaces in it" }));
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.text).field).toBe("Idempotency-Key");

    const theirs = await raw(stack.baseUrl, "POST", "/api/v1/rank", other.key, rankBody(2), { "Idempotency-Key": key });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(JSON.parse(theirs.text).request_id).not.toBe(JSON.parse(first.text).request_id);
    expect(await available(other.accountId)).toBe(48);
  });

  it("a refused request is not remembered: after a 402 the same key runs once credits are there", async () => {
    const account = await stack.createAccountDirect({ credits: 1 });
    const key = randomUUID();
    const refused = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, rankBody(2), { "Idempotency-Key": key });
    expect(refused.status).toBe(402);
    const granted = await stack.ledger.grant({ accountId: account.accountId, grantId: randomUUID(), credits: 10 });
    expect(granted.ok).toBe(true);
    const retried = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, rankBody(2), { "Idempotency-Key": key });
    expect(retried.status, stack.output()).toBe(200);
    expect(await available(account.accountId)).toBe(9);
  });

  it("concurrent requests with one key do one piece of work and bill once", async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, rankBody(3, 20), { "Idempotency-Key": key })));
    for (const a of answers) expect(a.status, stack.output()).toBe(200);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
    expect(await available(account.accountId)).toBe(47);
    const rows = await stack.database.db.selectFrom("api_requests").select("request_id").where("account_id", "=", account.accountId).execute();
    expect(rows).toHaveLength(1);
  });

  it("async: 202 with Location at once, progress while it runs, then the result; billed like a synchronous request", async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const accepted = conforms("rankAssets", await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, { ...rankBody(4, 30), async: true }));
    expect(accepted.status, stack.output()).toBe(202);
    const status = JSON.parse(accepted.text);
    expect(status).toMatchObject({ object: "request", operation: "rank", status: "running", progress: { done: 0, total: 4, unit: "assets" }, webhook: null, error: null });
    expect(accepted.headers.get("location")).toBe(`/api/v1/requests/${status.request_id}`);

    const running = conforms("getRequest", await raw(stack.baseUrl, "GET", status.result_url, account.key));
    expect([200, 202]).toContain(running.status);
    const done = await waitFor("the async result", async () => {
      const r = await raw(stack.baseUrl, "GET", status.result_url, account.key);
      return r.status === 200 ? r : null;
    });
    conforms("getRequest", done);
    const result = JSON.parse(done.text);
    expect(result.request_id).toBe(status.request_id);
    expect(result.ranked).toHaveLength(4);
    expect(result.summary.credits_used).toBe(4);
    expect(await available(account.accountId)).toBe(46);
  });

  it("async: 402 and 429 come back at once, as for a synchronous request, and nothing is stored", async () => {
    const poor = await stack.createAccountDirect({ credits: 1 });
    const refused = conforms("rankAssets", await raw(stack.baseUrl, "POST", "/api/v1/rank", poor.key, { ...rankBody(2), async: true }));
    expect(refused.status).toBe(402);

    const busy = await stack.createAccountDirect({ credits: 200 });
    for (let i = 0; i < 3; i++) expect((await raw(stack.baseUrl, "POST", "/api/v1/rank", busy.key, rankBody(20, 100 + i * 20))).status).toBe(200);
    const limited = conforms("rankAssets", await raw(stack.baseUrl, "POST", "/api/v1/rank", busy.key, { ...rankBody(1), async: true }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const asyncRows = await stack.database.db.selectFrom("api_requests").select("request_id").where("account_id", "in", [poor.accountId, busy.accountId]).where("mode", "=", "async").execute();
    expect(asyncRows).toHaveLength(0);
  });

  describe("webhooks", () => {
    let receiver: WebhookReceiver;
    let account: Account;
    let secret: string;

    beforeAll(async () => {
      receiver = await startWebhookReceiver(cert);
      account = await stack.createAccountDirect({ credits: 100 });
      // The test stack's gateway seals and opens secrets under the development key.
      secret = await webhooksRepository(stack.database.db, webhookSecretBox(DEVELOPMENT_SECRETS_KEY)).rotateSecret(account.accountId);
    });
    afterAll(async () => receiver?.close());

    it("refuses webhook_url without async, over http, to a private address, and for an account without a secret", async () => {
      const cases: Array<[Account, unknown, RegExp]> = [
        [account, { ...rankBody(1), webhook_url: receiver.url() }, /async/],
        [account, { ...rankBody(1), async: true, webhook_url: "http://example.com/hook" }, /https/],
        [account, { ...rankBody(1), async: true, webhook_url: "https://10.1.2.3/hook" }, /10\.1\.2\.3/],
        [await stack.createAccountDirect({ credits: 10 }), { ...rankBody(1), async: true, webhook_url: receiver.url() }, /signing secret/],
      ];
      for (const [who, body, message] of cases) {
        const r = conforms("rankAssets", await raw(stack.baseUrl, "POST", "/api/v1/rank", who.key, body));
        expect(r.status).toBe(422);
        expect(JSON.parse(r.text)).toMatchObject({ field: "webhook_url", error: expect.stringMatching(message) });
      }
    });

    it("POSTs the finished result, signed, with the same bytes GET answers", async () => {
      const accepted = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, { ...rankBody(2, 60), async: true, webhook_url: receiver.url("/signed") });
      expect(accepted.status, stack.output()).toBe(202);
      const id = JSON.parse(accepted.text).request_id as string;
      const hook = await waitFor("the webhook", async () => receiver.received.find((h) => h.headers["adrank-request-id"] === id) ?? null);
      expect(hook.headers["adrank-event"]).toBe("request.succeeded");
      expect(hook.headers["content-type"]).toMatch(/application\/json/);
      expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, secret)).toMatchObject({ ok: true });
      expect((await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, "whsec_wrong")).ok).toBe(false);
      const fetched = await raw(stack.baseUrl, "GET", `/api/v1/requests/${id}`, account.key);
      expect(hook.body).toBe(fetched.text);
    });

    it("a receiver that is down gets the delivery once it is back, and the attempts are recorded", async () => {
      const port = await freePort();
      const accepted = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, { ...rankBody(1, 70), async: true, webhook_url: `https://127.0.0.1:${port}/late` });
      expect(accepted.status, stack.output()).toBe(202);
      const id = JSON.parse(accepted.text).request_id as string;
      const db = stack.database.db;
      await waitFor("two failed attempts", async () => {
        const d = await db.selectFrom("webhook_deliveries").select(["attempts", "state"]).where("request_id", "=", id).executeTakeFirst();
        return d && d.attempts >= 2 ? d : null;
      });
      const late = await startWebhookReceiver(cert, port);
      try {
        const hook = await waitFor("the late delivery", async () => late.received.find((h) => h.headers["adrank-request-id"] === id) ?? null);
        expect(Number(hook.headers["adrank-delivery-attempt"])).toBeGreaterThanOrEqual(3);
        expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, secret)).toMatchObject({ ok: true });
        const delivery = await waitFor("the delivered state", async () => {
          const d = await db.selectFrom("webhook_deliveries").selectAll().where("request_id", "=", id).executeTakeFirst();
          return d?.state === "delivered" ? d : null;
        });
        const attempts = await db.selectFrom("webhook_attempts").selectAll().where("delivery_id", "=", delivery.id).orderBy("attempt").execute();
        expect(attempts.length).toBeGreaterThanOrEqual(3);
        expect(attempts[0]!.error).toMatch(/refused|connect/i);
        expect(attempts.at(-1)!.status).toBe(200);
        const status = JSON.parse((await raw(stack.baseUrl, "GET", `/api/v1/requests/${id}`, account.key)).text);
        expect(status.request_id).toBe(id);
      } finally {
        await late.close();
      }
    });
  });

  describe("a gateway killed mid-request", () => {
    it("a retry with the same key gets the result from another gateway, billed once", async () => {
      const account = await stack.createAccountDirect({ credits: 50 });
      // One asset at a time on the doomed gateway, so the request is surely mid-way when it dies.
      const doomed = await stack.startReplica("gateway", { ASSET_CONCURRENCY: "1" });
      const key = randomUUID();
      const body = rankBody(8, 200);
      const first = raw(doomed.baseUrl, "POST", "/api/v1/rank", account.key, body, { "Idempotency-Key": key }).catch((err: unknown) => err);
      await waitFor("the request to start", async () => {
        const row = await stack.database.db.selectFrom("api_requests").select(["request_id", "reservation_id"]).where("account_id", "=", account.accountId).executeTakeFirst();
        return row ?? null;
      });
      await new Promise((r) => setTimeout(r, 200));
      doomed.process.child.kill("SIGKILL");
      expect(await first).toBeInstanceOf(Error);
      const interrupted = await stack.database.db.selectFrom("api_requests").select(["state", "progress_done"]).where("account_id", "=", account.accountId).executeTakeFirstOrThrow();
      expect(interrupted.state).toBe("running");

      const retry = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, body, { "Idempotency-Key": key });
      expect(retry.status, stack.output()).toBe(200);
      const result = JSON.parse(retry.text);
      expect(result.ranked).toHaveLength(8);
      expect(result.summary.credits_used).toBe(8);
      // Billed once: 8 evaluations, and no reservation left holding credits.
      expect(await available(account.accountId)).toBe(42);
      const again = await raw(stack.baseUrl, "POST", "/api/v1/rank", account.key, body, { "Idempotency-Key": key });
      expect(again.text).toBe(retry.text);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    }, 60_000);

    it("an asynchronous request whose gateway died is taken over and finished by another", async () => {
      const account = await stack.createAccountDirect({ credits: 50 });
      const doomed = await stack.startReplica("gateway");
      const accepted = await raw(doomed.baseUrl, "POST", "/api/v1/rank", account.key, { ...rankBody(4, 300), async: true });
      expect(accepted.status, stack.output()).toBe(202);
      const id = JSON.parse(accepted.text).request_id as string;
      doomed.process.child.kill("SIGKILL");
      const done = await waitFor("the taken-over result", async () => {
        const r = await raw(stack.baseUrl, "GET", `/api/v1/requests/${id}`, account.key);
        return r.status === 200 ? r : null;
      }, 45_000);
      const result = JSON.parse(done.text);
      expect(result.request_id).toBe(id);
      expect(result.ranked).toHaveLength(4);
      expect(await available(account.accountId)).toBe(46);
      const row = await stack.database.db.selectFrom("api_requests").select(["attempt", "state"]).where("request_id", "=", id).executeTakeFirstOrThrow();
      expect(row).toEqual({ attempt: 2, state: "succeeded" });
    }, 60_000);
  });
});
