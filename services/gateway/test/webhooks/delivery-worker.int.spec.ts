import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createDb } from "@adrank/db";
import { newDeliveryId, requestsRepository, webhooksRepository, type DeliverySummary, type WebhooksRepository } from "@adrank/db/repositories";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { loadConfig, webhookSecretBox } from "@adrank/runtime";
import { verifyWebhookSignature } from "@adrank/sdk";
import { WebhookEnv } from "../../src/webhooks/config.ts";
import { startWebhookDelivery, type DeliveryLog, type WebhookDelivery, type WebhookDeliveryDeps } from "../../src/webhooks/delivery-worker.ts";
import { makeSelfSignedCert, type TestCert } from "../../../../packages/images/test/support/self-signed-cert.ts";
import { startBlackHole } from "./support/black-hole.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.ts";

let tdb: TestDatabase;
const box = webhookSecretBox("k".repeat(40));
/** The repository as the gateway makes it: secrets sealed under its ADRANK_SECRETS_KEY. */
const repoOf = (db: TestDatabase["db"]) => webhooksRepository(db, box);
let cert: TestCert;
let dir: string;
let caFile: string;
const open: { workers: WebhookDelivery[]; receivers: WebhookReceiver[] } = { workers: [], receivers: [] };

// Long enough to be stored as an image once and restored: the receiver must still get every byte.
const DATA_URI = `data:image/png;base64,${Buffer.alloc(900, 7).toString("base64")}`;
const resultBody = (requestId: string) =>
  JSON.stringify({ object: "rank", request_id: requestId, results: [{ asset_url: DATA_URI, score: 7.25, note: "café ✓ \u2028" }] });

/** A log that keeps every line, to check what was (and was not) written. */
function recordingLog(): DeliveryLog & { lines: { level: string; fields: Record<string, unknown>; message: string }[] } {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}

/** The worker's settings as the gateway reads them from its environment; short schedules for tests. */
function config(env: Record<string, string> = {}) {
  return loadConfig(z.object(WebhookEnv), {
    WEBHOOK_POLL_MS: "25",
    WEBHOOK_TIMEOUT_MS: "3000",
    WEBHOOK_RETRY_BASE_MS: "50",
    WEBHOOK_RETRY_MAX_DELAY_MS: "200",
    WEBHOOK_RETRY_FOR_MS: "60000",
    WEBHOOK_ALLOW_LOOPBACK: "true",
    WEBHOOK_CA_FILE: caFile,
    ...env,
  });
}

function start(deps: Partial<WebhookDeliveryDeps> & { env?: Record<string, string> } = {}): WebhookDelivery {
  const { env, ...rest } = deps;
  const worker = startWebhookDelivery({ repo: repoOf(tdb.db), log: recordingLog(), config: config(env), ...rest });
  open.workers.push(worker);
  return worker;
}

async function receiver(port = 0): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver(cert, port);
  open.receivers.push(r);
  return r;
}

/** A new account with a webhook secret. */
async function account(): Promise<{ accountId: string; secret: string }> {
  const accountId = `acct_${randomUUID().slice(0, 8)}`;
  return { accountId, secret: await repoOf(tdb.db).rotateSecret(accountId) };
}

/** An asynchronous request that ran and finished, its webhook delivery queued as the gateway queues it. */
async function finishedRequest(accountId: string, url: string, end?: { state: "failed"; body: string }): Promise<{ requestId: string; deliveryId: string; body: string }> {
  const requests = requestsRepository(tdb.db);
  const requestId = randomUUID();
  const claim = await requests.start(
    { requestId, accountId, keyId: "key_test", operation: "rank", mode: "async", fingerprint: "fp", progressTotal: 1, leaseOwner: "gw-test", leaseMs: 60_000, webhookUrl: url, acceptedBody: "{}" },
    null,
    24,
  );
  expect(claim).toEqual({ kind: "claimed" });
  const body = end?.body ?? resultBody(requestId);
  const deliveryId = newDeliveryId();
  const finished = await requests.finish(requestId, "gw-test", {
    state: end?.state ?? "succeeded",
    response: { status: 200, headers: { "content-type": "application/json" }, body },
    webhookDeliveryId: deliveryId,
  });
  expect(finished).toBe(true);
  return { requestId, deliveryId, body };
}

async function delivery(accountId: string, deliveryId: string): Promise<DeliverySummary> {
  const all = await repoOf(tdb.db).listForAccount(accountId, { limit: 100 });
  const found = all.find((d) => d.id === deliveryId);
  if (!found) throw new Error(`no delivery ${deliveryId}`);
  return found;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const settled = (accountId: string, deliveryId: string, state: "delivered" | "failed") =>
  until(`delivery ${deliveryId} ${state}`, async () => {
    const d = await delivery(accountId, deliveryId);
    return d.state === state ? d : null;
  });

beforeAll(async () => {
  tdb = await createTestDatabase("whk");
  cert = makeSelfSignedCert();
  dir = mkdtempSync(join(tmpdir(), "webhook-ca-"));
  caFile = join(dir, "ca.pem");
  writeFileSync(caFile, cert.cert);
});

afterEach(async () => {
  await Promise.all(open.workers.splice(0).map((w) => w.stop()));
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
  // A test's unfinished deliveries must not reach the next test's worker.
  await tdb.db.updateTable("webhook_deliveries").set({ state: "failed" }).where("state", "=", "pending").execute();
});

afterAll(async () => {
  await tdb.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("startWebhookDelivery", () => {
  it("delivers a finished request's exact body, signed, and logs neither the secret nor the body", async () => {
    const { accountId, secret } = await account();
    const hooks = await receiver();
    const { requestId, deliveryId, body } = await finishedRequest(accountId, hooks.url("/adrank?token=t0ps3cret"));
    const log = recordingLog();
    start({ log });

    const done = await settled(accountId, deliveryId, "delivered");
    expect(done).toMatchObject({ attempts: 1, lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect(done.deliveredAt).toBeInstanceOf(Date);
    expect(done.history).toMatchObject([{ attempt: 1, status: 200, error: null }]);

    expect(hooks.received).toHaveLength(1);
    const hook = hooks.received[0]!;
    expect(hook.body).toBe(body);
    expect(hook.path).toBe("/adrank?token=t0ps3cret");
    expect(hook.headers).toMatchObject({
      "content-type": "application/json",
      "adrank-event": "request.succeeded",
      "adrank-request-id": requestId,
      "adrank-delivery-id": deliveryId,
      "adrank-delivery-attempt": "1",
      "user-agent": "adrank-webhooks/1",
    });
    const signature = hook.headers["adrank-signature"] as string;
    expect(signature.match(/v1=/g)).toHaveLength(1);
    expect(await verifyWebhookSignature(hook.body, signature, secret)).toMatchObject({ ok: true });

    const logged = JSON.stringify(log.lines);
    expect(log.lines).toContainEqual(expect.objectContaining({ message: "webhook delivered", fields: expect.objectContaining({ deliveryId, requestId, host: `127.0.0.1:${hooks.port}`, status: 200 }) }));
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain("café");
    expect(logged).not.toContain("t0ps3cret");
  });

  it("sends request.failed with a failed request's status body", async () => {
    const { accountId } = await account();
    const hooks = await receiver();
    const requestId = randomUUID();
    const failedStatus = JSON.stringify({ object: "request", request_id: requestId, operation: "rank", status: "failed", error: "The scoring model did not answer." });
    const { deliveryId } = await finishedRequest(accountId, hooks.url(), { state: "failed", body: failedStatus });
    start();
    await settled(accountId, deliveryId, "delivered");
    expect(hooks.received[0]).toMatchObject({ body: failedStatus, headers: { "adrank-event": "request.failed" } });
  });

  it("retries a receiver that is down and delivers once it is up, recording every attempt", async () => {
    const { accountId } = await account();
    const gone = await startWebhookReceiver(cert);
    const port = gone.port;
    await gone.close();
    const { deliveryId, body } = await finishedRequest(accountId, `https://127.0.0.1:${port}/hook`);
    start();

    await until("two refused attempts", async () => (await delivery(accountId, deliveryId)).attempts >= 2);
    const hooks = await receiver(port);
    const done = await settled(accountId, deliveryId, "delivered");

    const last = done.history.at(-1)!;
    expect(last).toMatchObject({ attempt: done.attempts, status: 200, error: null });
    expect(done.history.slice(0, -1).length).toBeGreaterThanOrEqual(2);
    for (const [i, a] of done.history.slice(0, -1).entries()) expect(a).toMatchObject({ attempt: i + 1, status: null, error: "connection refused" });
    // Backoff: each retry waited at least the base delay, doubling.
    const times = done.history.map((a) => a.attemptedAt.getTime());
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(45);
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]).toMatchObject({ body, headers: { "adrank-delivery-attempt": String(done.attempts) } });
  });

  it("retries after a 500 and is delivered by the 200 that follows", async () => {
    const { accountId, secret } = await account();
    const hooks = await receiver();
    hooks.answer((_hook, n) => ({ status: n === 0 ? 500 : 200 }));
    const { deliveryId, body } = await finishedRequest(accountId, hooks.url());
    start();
    const done = await settled(accountId, deliveryId, "delivered");
    expect(done.history).toMatchObject([
      { attempt: 1, status: 500, error: "answered 500 (Internal Server Error)" },
      { attempt: 2, status: 200, error: null },
    ]);
    expect(hooks.received.map((h) => [h.headers["adrank-delivery-id"], h.headers["adrank-delivery-attempt"], h.body])).toEqual([
      [deliveryId, "1", body],
      [deliveryId, "2", body],
    ]);
    for (const h of hooks.received) expect(await verifyWebhookSignature(h.body, h.headers["adrank-signature"] as string, secret)).toMatchObject({ ok: true });
  });

  it("does not follow a 302: the attempt failed and is retried later", async () => {
    const { accountId } = await account();
    const hooks = await receiver();
    hooks.answer((hook) => (hook.path === "/hook" ? { status: 302, headers: { location: hooks.url("/moved") } } : { status: 200 }));
    const { deliveryId } = await finishedRequest(accountId, hooks.url());
    start({ env: { WEBHOOK_RETRY_BASE_MS: "60000", WEBHOOK_RETRY_MAX_DELAY_MS: "60000", WEBHOOK_RETRY_FOR_MS: "600000" } });
    const d = await until("the first attempt", async () => {
      const found = await delivery(accountId, deliveryId);
      return found.attempts >= 1 ? found : null;
    });
    expect(d).toMatchObject({ state: "pending", lastStatus: 302, lastError: "redirect not followed (302)" });
    expect(d.history).toMatchObject([{ attempt: 1, status: 302, error: "redirect not followed (302)" }]);
    expect(d.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(hooks.received.map((h) => h.path)).toEqual(["/hook"]);
  });

  it("signs with both the new and the rotated-out secret while the old one is valid", async () => {
    const { accountId, secret: old } = await account();
    const current = await repoOf(tdb.db).rotateSecret(accountId);
    const hooks = await receiver();
    const { deliveryId } = await finishedRequest(accountId, hooks.url());
    start();
    await settled(accountId, deliveryId, "delivered");
    const hook = hooks.received[0]!;
    const signature = hook.headers["adrank-signature"] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(await verifyWebhookSignature(hook.body, signature, current)).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(hook.body, signature, old)).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(hook.body, signature, "whsec_neither")).toMatchObject({ ok: false });
  });

  it("marks a delivery failed once its retry period is over, and attempts it no more", async () => {
    const { accountId } = await account();
    const hooks = await receiver();
    hooks.answer(() => ({ status: 503 }));
    const { deliveryId } = await finishedRequest(accountId, hooks.url());
    const log = recordingLog();
    start({ log, env: { WEBHOOK_RETRY_FOR_MS: "400" } });
    const failed = await settled(accountId, deliveryId, "failed");
    expect(failed.history.length).toBeGreaterThanOrEqual(2);
    for (const a of failed.history) expect(a).toMatchObject({ status: 503, error: "answered 503 (Service Unavailable)" });
    expect(failed.history.at(-1)!.attemptedAt.getTime() - failed.createdAt.getTime()).toBeLessThanOrEqual(400 + 100);
    expect(failed.nextAttemptAt).toBeNull();
    expect(log.lines).toContainEqual(expect.objectContaining({ level: "warn", message: "webhook delivery failed for good: its retry period is over" }));
    const seen = hooks.received.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(hooks.received).toHaveLength(seen);
    expect(seen).toBe(failed.history.length);
  });

  it("delivers each delivery exactly once when two gateways share the database", async () => {
    const { accountId } = await account();
    const hooks = await receiver();
    // A slow receiver keeps attempts in flight while the other worker polls.
    hooks.answer((_hook, _n, res) => {
      setTimeout(() => res.writeHead(200).end(), 40);
      return "handled";
    });
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await finishedRequest(accountId, hooks.url()));
    const otherGateway = createDb({ connectionString: tdb.connectionString, schema: tdb.schema, max: 5 });
    try {
      start();
      start({ repo: repoOf(otherGateway) });
      for (const m of made) await settled(accountId, m.deliveryId, "delivered");
      await new Promise((r) => setTimeout(r, 200));
      const ids = hooks.received.map((h) => h.headers["adrank-delivery-id"]);
      expect(ids.toSorted()).toEqual(made.map((m) => m.deliveryId).toSorted());
      for (const m of made) expect((await delivery(accountId, m.deliveryId)).attempts).toBe(1);
    } finally {
      await Promise.all(open.workers.splice(0).map((w) => w.stop()));
      await otherGateway.destroy();
    }
  });

  it("keeps going after a database error", async () => {
    const { accountId } = await account();
    const hooks = await receiver();
    const { deliveryId } = await finishedRequest(accountId, hooks.url());
    const real = repoOf(tdb.db);
    let failures = 2;
    const flaky: Pick<WebhooksRepository, "claimDue" | "recordAttempt" | "sealPlainSecrets"> = {
      claimDue: (opts) => (failures-- > 0 ? Promise.reject(new Error("connection terminated unexpectedly")) : real.claimDue(opts)),
      recordAttempt: (id, a) => real.recordAttempt(id, a),
      sealPlainSecrets: () => real.sealPlainSecrets(),
    };
    const log = recordingLog();
    start({ repo: flaky, log });
    await settled(accountId, deliveryId, "delivered");
    expect(log.lines.filter((l) => l.level === "error")).toHaveLength(2);
    expect(hooks.received).toHaveLength(1);
  });

  it("stop() waits for the attempt in flight and records it", async () => {
    const { accountId } = await account();
    const hooks = await receiver();
    hooks.answer((_hook, _n, res) => {
      setTimeout(() => res.writeHead(200).end(), 300);
      return "handled";
    });
    const { deliveryId } = await finishedRequest(accountId, hooks.url());
    const worker = start();
    await until("the receiver to get the delivery", async () => hooks.received.length === 1);
    await worker.stop();
    expect(await delivery(accountId, deliveryId)).toMatchObject({ state: "delivered", attempts: 1 });
  });

  it("gives an account whose receiver never answers at most WEBHOOK_ACCOUNT_CONCURRENCY slots, each for WEBHOOK_TIMEOUT_MS; another account's delivery goes out meanwhile", async () => {
    const hole = await startBlackHole();
    try {
      const stuck = await account();
      const backlog: { deliveryId: string }[] = [];
      for (let i = 0; i < 8; i++) backlog.push(await finishedRequest(stuck.accountId, hole.url));
      const other = await account();
      const hooks = await receiver();
      const { deliveryId } = await finishedRequest(other.accountId, hooks.url());
      const started = Date.now();
      start({ env: { WEBHOOK_TIMEOUT_MS: "1500", WEBHOOK_CONCURRENCY: "4", WEBHOOK_ACCOUNT_CONCURRENCY: "2", WEBHOOK_RETRY_BASE_MS: "60000", WEBHOOK_RETRY_MAX_DELAY_MS: "60000", WEBHOOK_RETRY_FOR_MS: "600000" } });
      await settled(other.accountId, deliveryId, "delivered");
      const waited = Date.now() - started;
      console.log(`worker: the other account's delivery arrived after ${waited} ms beside a backlog of 8 to a black hole`);
      // Before its first timed-out attempt could free a slot.
      expect(waited).toBeLessThan(1_500);
      const firstAttempt = await until("an attempt to the black hole", async () => {
        const d = await delivery(stuck.accountId, backlog[0]!.deliveryId);
        return d.history[0];
      });
      expect(firstAttempt).toMatchObject({ status: null, error: "timed out after 1.5 s" });
      expect(firstAttempt.durationMs).toBeLessThan(2_500);
      expect(hole.mostOpen()).toBe(2);
    } finally {
      await Promise.all(open.workers.splice(0).map((w) => w.stop()));
      await hole.close();
    }
  });

  it("seals the signing secrets stored in plain text when it starts", async () => {
    const accountId = `acct_${randomUUID().slice(0, 8)}`;
    await tdb.db.insertInto("webhook_secrets").values({ account_id: accountId, secret: "whsec_plainBeforeSealing" }).execute();
    const log = recordingLog();
    start({ log });
    const row = await until("the row sealed", async () => {
      const r = await tdb.db.selectFrom("webhook_secrets").select("secret").where("account_id", "=", accountId).executeTakeFirstOrThrow();
      return r.secret.startsWith("v1.") ? r : null;
    });
    expect(box.open(row.secret, accountId)).toBe("whsec_plainBeforeSealing");
    expect(log.lines).toContainEqual(expect.objectContaining({ message: "sealed webhook signing secrets stored in plain text" }));
  });

  it("sends nothing when the secret does not open (another ADRANK_SECRETS_KEY), says so to the operators, and retries", async () => {
    const accountId = `acct_${randomUUID().slice(0, 8)}`;
    await webhooksRepository(tdb.db, webhookSecretBox("o".repeat(40))).rotateSecret(accountId);
    const hooks = await receiver();
    const { deliveryId } = await finishedRequest(accountId, hooks.url());
    const log = recordingLog();
    start({ log, env: { WEBHOOK_RETRY_BASE_MS: "60000", WEBHOOK_RETRY_MAX_DELAY_MS: "60000", WEBHOOK_RETRY_FOR_MS: "600000" } });
    const d = await until("the first attempt", async () => {
      const found = await delivery(accountId, deliveryId);
      return found.attempts >= 1 ? found : null;
    });
    expect(d).toMatchObject({ state: "pending", lastStatus: null, lastError: expect.stringMatching(/signing secret could not be read/) });
    expect(hooks.connections()).toBe(0);
    expect(log.lines).toContainEqual(expect.objectContaining({ level: "error", message: expect.stringMatching(/ADRANK_SECRETS_KEY must be the same/) }));
  });
});
