import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDeliveryId, requestsRepository } from "@adrank/db/repositories";
import { verifyWebhookSignature } from "@adrank/sdk";
import { makeSelfSignedCert } from "../../packages/images/test/support/self-signed-cert.ts";
import { startBlackHole, type BlackHole } from "../../services/gateway/test/webhooks/support/black-hole.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../services/gateway/test/webhooks/support/webhook-receiver.ts";
import { eventually } from "../support/faults.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Issue 31, attack 6: one account queues a backlog of webhook deliveries to an address that
// accepts connections and never answers. Deliveries used to be claimed oldest first, four at a
// time, each holding its slot for the whole time-out: every other account's webhooks waited
// behind the backlog (~1,250 of them: hours). Now accounts take turns, one account holds at most
// WEBHOOK_ACCOUNT_CONCURRENCY (2) slots, and at WEBHOOK_MAX_PENDING_PER_ACCOUNT waiting
// deliveries a new request with a webhook_url is refused up front, costing nothing.

const TIMEOUT_MS = 2_000;
const BACKLOG = 40;
/** B's webhook must arrive within this of its request being accepted (the old code: ~BACKLOG × TIMEOUT / 4 = 20 s). */
const BOUND_MS = 6_000;

const rankBody = (variant: number, webhookUrl: string) => ({ assets: [{ url: creative(variant), id: "a0" }], audience: { name: "Webhook fairness" }, refine_close_pairs: false, async: true, webhook_url: webhookUrl });

async function post(stack: Stack, key: string, body: unknown): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const res = await fetch(`${stack.baseUrl}/api/v1/rank`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

describe("webhook delivery is fair between accounts (issue 31, attack 6)", () => {
  let stack: Stack;
  let certDir: string;
  let receiver: WebhookReceiver;
  let hole: BlackHole;
  const cert = makeSelfSignedCert();

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), "webhook-fairness-"));
    writeFileSync(join(certDir, "ca.pem"), cert.cert);
    stack = await startStack({
      voterEnv: false,
      refinementEnv: false,
      gatewayEnv: {
        WEBHOOK_ALLOW_LOOPBACK: "true",
        WEBHOOK_CA_FILE: join(certDir, "ca.pem"),
        WEBHOOK_POLL_MS: "100",
        WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        // The backlog's retries stay out of the test's few seconds.
        WEBHOOK_RETRY_BASE_MS: "600000",
        WEBHOOK_RETRY_MAX_DELAY_MS: "600000",
        WEBHOOK_MAX_PENDING_PER_ACCOUNT: String(BACKLOG),
      },
    });
    receiver = await startWebhookReceiver(cert);
    hole = await startBlackHole();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await hole?.close();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  }, 60_000);

  /** A signing secret as a row from before sealing: both the old code and the new one sign with it. */
  async function secretFor(account: Account): Promise<string> {
    const secret = `whsec_${randomBytes(32).toString("base64url")}`;
    await stack.database.db.insertInto("webhook_secrets").values({ account_id: account.accountId, secret }).execute();
    return secret;
  }

  /** `n` finished asynchronous requests of the account, each with a delivery queued as the gateway queues it. */
  async function queueBacklog(account: Account, url: string, n: number): Promise<void> {
    const requests = requestsRepository(stack.database.db);
    for (let i = 0; i < n; i++) {
      const requestId = randomUUID();
      await requests.start(
        { requestId, namespace: stack.namespace, accountId: account.accountId, keyId: account.keyId, operation: "rank", mode: "async", fingerprint: requestId, progressTotal: 1, leaseOwner: "backlog", leaseMs: 60_000, webhookUrl: url, acceptedBody: "{}" },
        null,
        24,
      );
      const body = JSON.stringify({ object: "rank", request_id: requestId, ranked: [] });
      await requests.finish(requestId, "backlog", { state: "succeeded", response: { status: 200, headers: {}, body }, webhookDeliveryId: newDeliveryId() });
    }
  }

  const available = async (accountId: string) => {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };
  const pendingOf = async (accountId: string) =>
    Number((await stack.database.db.selectFrom("webhook_deliveries").select((eb) => eb.fn.countAll().as("n")).where("account_id", "=", accountId).where("state", "=", "pending").executeTakeFirstOrThrow()).n);

  let flooder: Account;

  it("another account's webhook arrives within seconds while a backlog to a black hole is pending, and the backlog holds at most 2 slots, each for the time-out", async () => {
    flooder = await stack.createAccountDirect({ credits: 50 });
    const other = await stack.createAccountDirect({ credits: 50 });
    await secretFor(flooder);
    const otherSecret = await secretFor(other);

    const queuedAt = Date.now();
    await queueBacklog(flooder, hole.url, BACKLOG);
    await eventually(async () => (hole.accepted() >= 1 ? true : undefined), 30_000, "the backlog's first attempt");

    const sent = Date.now();
    const accepted = await post(stack, other.key, rankBody(2, receiver.url("/other")));
    expect(accepted.status, stack.output()).toBe(202);
    const requestId = accepted.json.request_id as string;
    const hook = await eventually(async () => receiver.received.find((h) => h.headers["adrank-request-id"] === requestId), 60_000, "the other account's webhook");
    const arrivedMs = Date.now() - sent;
    const delivery = await stack.database.db.selectFrom("webhook_deliveries").select("created_at").where("request_id", "=", requestId).executeTakeFirstOrThrow();
    const stillPending = await pendingOf(flooder.accountId);
    console.log(
      `fairness: the other account's webhook arrived ${arrivedMs} ms after its request was accepted ` +
        `(its delivery was queued ${delivery.created_at.getTime() - sent} ms after; the backlog ${sent - queuedAt} ms before), ` +
        `while ${stillPending} of the flooder's ${BACKLOG} deliveries were pending; oldest-first with 4 slots would have made it wait about ${(BACKLOG * TIMEOUT_MS) / 4 / 1000} s`,
    );
    expect(arrivedMs).toBeLessThan(BOUND_MS);
    expect(stillPending).toBeGreaterThan(BACKLOG / 2);
    expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, otherSecret)).toMatchObject({ ok: true });

    // Two rounds of the backlog's attempts: each ends at the time-out, never more than 2 at once.
    const attempts = await eventually(
      async () => {
        const rows = await stack.database.db
          .selectFrom("webhook_attempts")
          .innerJoin("webhook_deliveries", "webhook_deliveries.id", "webhook_attempts.delivery_id")
          .select(["webhook_attempts.error", "webhook_attempts.duration_ms"])
          .where("webhook_deliveries.account_id", "=", flooder.accountId)
          .execute();
        return rows.length >= 4 ? rows : undefined;
      },
      30_000,
      "four attempts to the black hole",
    );
    console.log(`fairness: black-hole attempts took ${attempts.map((a) => a.duration_ms).join(", ")} ms; at most ${hole.mostOpen()} connections to it at once`);
    expect(hole.mostOpen()).toBeLessThanOrEqual(2);
    for (const a of attempts) {
      expect(a.error).toBe(`timed out after ${TIMEOUT_MS / 1000} s`);
      expect(a.duration_ms).toBeLessThan(TIMEOUT_MS + 1_000);
    }
  }, 120_000);

  it("refuses the flooder's next request with webhook_url at the pending cap, up front and for free", async () => {
    expect(await pendingOf(flooder.accountId)).toBeGreaterThanOrEqual(BACKLOG - 8);
    const creditsBefore = await available(flooder.accountId);
    const rowsBefore = await stack.database.db.selectFrom("api_requests").select("request_id").where("account_id", "=", flooder.accountId).execute();
    const refused = await post(stack, flooder.key, rankBody(1, hole.url));
    console.log(`pending cap: a request with webhook_url at ${BACKLOG} waiting deliveries answered ${refused.status} (Retry-After ${refused.headers.get("retry-after")}): ${String(refused.json.error)}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.json).toMatchObject({ error: expect.stringMatching(/webhook deliveries waiting.*nothing was charged/), retryAfter: expect.any(Number), resetAt: expect.any(Number) });
    expect(await stack.database.db.selectFrom("api_requests").select("request_id").where("account_id", "=", flooder.accountId).execute()).toHaveLength(rowsBefore.length);
    expect(await available(flooder.accountId)).toBe(creditsBefore);
    // Without a webhook_url the account is served as ever: only the deliveries are capped.
    const plain = await post(stack, flooder.key, { ...rankBody(3, hole.url), webhook_url: undefined });
    expect(plain.status, stack.output()).toBe(202);
  }, 60_000);
});
