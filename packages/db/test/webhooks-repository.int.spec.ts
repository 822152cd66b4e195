import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PREVIOUS_SECRET_GRACE_HOURS, requestsRepository, webhooksRepository } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Webhook secrets (one per account, rotatable with an overlap) and deliveries that any number
// of gateways claim one attempt at a time.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbwebhooks");
});
afterAll(async () => {
  await t?.destroy();
});

const LEASE_MS = 30_000;
const hooks = () => webhooksRepository(t.db);
const HOOK_URL = "https://hooks.example.com/adrank";

/** An asynchronous request with a webhook that finished with `body`, and its queued delivery's id. */
async function finishedWithWebhook(accountId: string, body: string, state: "succeeded" | "failed" = "succeeded"): Promise<{ requestId: string; deliveryId: string }> {
  const requests = requestsRepository(t.db);
  const requestId = randomUUID();
  const deliveryId = `whd_${randomBytes(10).toString("hex")}`;
  await requests.start({ requestId, accountId, keyId: "key_w", operation: "rank", mode: "async", fingerprint: "fp", progressTotal: 1, leaseOwner: "gw", leaseMs: 15_000, webhookUrl: HOOK_URL, acceptedBody: "{}", requestBody: "{}" }, null, 24);
  const response = body === "" ? null : { status: 200, headers: { "content-type": "application/json" }, body };
  await requests.finish(requestId, "gw", { state, response, webhookDeliveryId: deliveryId, ...(state === "failed" ? { error: "it failed" } : {}) });
  return { requestId, deliveryId };
}

const delivery = (id: string) => t.db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const dueNow = (id: string) => sql`update webhook_deliveries set next_attempt_at = now() - interval '1 second' where id = ${id}`.execute(t.db);

describe("webhook secrets", () => {
  it("creates a whsec_ secret once asked, and says only when it was made", async () => {
    expect(await hooks().hasSecret("acct_s1")).toBe(false);
    expect(await hooks().secretInfo("acct_s1")).toBeNull();
    const secret = await hooks().rotateSecret("acct_s1");
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(await hooks().hasSecret("acct_s1")).toBe(true);
    const info = await hooks().secretInfo("acct_s1");
    expect(info).toEqual({ createdAt: expect.any(Date), rotatedAt: null, previousValidUntil: null });
    expect(JSON.stringify(info)).not.toContain(secret);
    expect(await hooks().hasSecret("acct_s2")).toBe(false);
  });

  it("rotates to a new secret and keeps the previous one valid for 24 hours", async () => {
    const first = await hooks().rotateSecret("acct_rot");
    const second = await hooks().rotateSecret("acct_rot");
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const row = await t.db
      .selectFrom("webhook_secrets")
      .select(["secret", "previous_secret", sql<number>`extract(epoch from previous_valid_until - now())`.as("valid_for_s")])
      .where("account_id", "=", "acct_rot")
      .executeTakeFirstOrThrow();
    expect(row.secret).toBe(second);
    expect(row.previous_secret).toBe(first);
    expect(PREVIOUS_SECRET_GRACE_HOURS).toBe(24);
    expect(Number(row.valid_for_s)).toBeGreaterThan(24 * 3600 - 60);
    expect(Number(row.valid_for_s)).toBeLessThanOrEqual(24 * 3600);
    const info = await hooks().secretInfo("acct_rot");
    expect(info!.rotatedAt).toBeInstanceOf(Date);
    expect(info!.previousValidUntil).toBeInstanceOf(Date);
  });
});

describe("webhook deliveries", () => {
  // claimDue takes the oldest due delivery of any account: each test starts with none.
  beforeEach(async () => {
    await t.db.deleteFrom("webhook_deliveries").execute();
  });

  it("claims a due delivery once with its exact body and the account's secret; a second claim waits for the lease", async () => {
    const secret = await hooks().rotateSecret("acct_d1");
    const png = `data:image/png;base64,${randomBytes(900).toString("base64")}`;
    const body = JSON.stringify({ request_id: "r", ranked: [{ asset_url: png }, { asset_url: png }] });
    const { requestId, deliveryId } = await finishedWithWebhook("acct_d1", body);

    const [a, b] = await Promise.all([hooks().claimDue(LEASE_MS), hooks().claimDue(LEASE_MS)]);
    const claimed = [a, b].filter((c) => c !== null);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ id: deliveryId, requestId, accountId: "acct_d1", url: HOOK_URL, attempts: 0, resultStatus: 200, secrets: [secret] });
    expect(claimed[0]!.body).toBe(body);
    expect(await hooks().claimDue(LEASE_MS)).toBeNull();

    // A worker that died mid-attempt: once its lease runs out the delivery is due again.
    await sql`update webhook_deliveries set lease_expires_at = now() - interval '1 second' where id = ${deliveryId}`.execute(t.db);
    expect(await hooks().claimDue(LEASE_MS)).toMatchObject({ id: deliveryId, attempts: 0 });
  });

  it("signs with the rotated-out secret too while it is valid", async () => {
    const old = await hooks().rotateSecret("acct_d2");
    const current = await hooks().rotateSecret("acct_d2");
    const { deliveryId } = await finishedWithWebhook("acct_d2", '{"ok":true}');
    expect((await hooks().claimDue(LEASE_MS))!.secrets).toEqual([current, old]);

    await sql`update webhook_secrets set previous_valid_until = now() - interval '1 second' where account_id = 'acct_d2'`.execute(t.db);
    await sql`update webhook_deliveries set lease_expires_at = null where id = ${deliveryId}`.execute(t.db);
    expect((await hooks().claimDue(LEASE_MS))!.secrets).toEqual([current]);
  });

  it("records a failed attempt as due again later, a 2xx as delivered, and keeps every attempt", async () => {
    await hooks().rotateSecret("acct_d3");
    const { requestId, deliveryId } = await finishedWithWebhook("acct_d3", '{"n":1}');
    const first = await hooks().claimDue(LEASE_MS);
    const t1 = new Date(Date.now() - 1_000);
    const retryAt = new Date(Date.now() + 10_000);
    await hooks().recordAttempt(first!.id, { attempt: 1, attemptedAt: t1, status: 503, error: "HTTP 503", durationMs: 41, delivered: false, nextAttemptAt: retryAt });
    expect(await delivery(deliveryId)).toMatchObject({ state: "pending", attempts: 1, next_attempt_at: retryAt, lease_expires_at: null, last_status: 503, last_error: "HTTP 503" });
    // Not due before its time.
    expect(await hooks().claimDue(LEASE_MS)).toBeNull();

    await dueNow(deliveryId);
    const second = await hooks().claimDue(LEASE_MS);
    expect(second).toMatchObject({ id: deliveryId, attempts: 1 });
    const t2 = new Date();
    await hooks().recordAttempt(deliveryId, { attempt: 2, attemptedAt: t2, status: 204, error: null, durationMs: 12, delivered: true, nextAttemptAt: null });
    expect(await delivery(deliveryId)).toMatchObject({ state: "delivered", attempts: 2, delivered_at: t2, lease_expires_at: null, last_status: 204, last_error: null });
    await dueNow(deliveryId);
    expect(await hooks().claimDue(LEASE_MS)).toBeNull();
    expect((await requestsRepository(t.db).find(requestId, "acct_d3"))!.webhook).toEqual({ id: deliveryId, url: HOOK_URL, state: "delivered", attempts: 2 });

    const [listed] = await hooks().listForAccount("acct_d3", { limit: 10 });
    expect(listed).toMatchObject({ id: deliveryId, requestId, url: HOOK_URL, state: "delivered", attempts: 2, nextAttemptAt: null, lastStatus: 204, deliveredAt: t2 });
    expect(listed!.history).toEqual([
      { attempt: 1, attemptedAt: t1, status: 503, error: "HTTP 503", durationMs: 41 },
      { attempt: 2, attemptedAt: t2, status: 204, error: null, durationMs: 12 },
    ]);
  });

  it("gives up when no next attempt is scheduled: the delivery has failed", async () => {
    await hooks().rotateSecret("acct_d4");
    const { deliveryId } = await finishedWithWebhook("acct_d4", '{"n":2}');
    await hooks().claimDue(LEASE_MS);
    await hooks().recordAttempt(deliveryId, { attempt: 17, attemptedAt: new Date(), status: null, error: "timed out after 10 s", durationMs: 10_000, delivered: false, nextAttemptAt: null });
    expect(await delivery(deliveryId)).toMatchObject({ state: "failed", attempts: 17, last_status: null, last_error: "timed out after 10 s" });
    await dueNow(deliveryId);
    expect(await hooks().claimDue(LEASE_MS)).toBeNull();
    const [listed] = await hooks().listForAccount("acct_d4", { limit: 10 });
    expect(listed).toMatchObject({ state: "failed", nextAttemptAt: null });
  });

  it("records a repeated attempt number once", async () => {
    await hooks().rotateSecret("acct_d5");
    const { deliveryId } = await finishedWithWebhook("acct_d5", "{}");
    const attempt = { attempt: 1, attemptedAt: new Date(), status: 500, error: "HTTP 500", durationMs: 5, delivered: false, nextAttemptAt: new Date(Date.now() + 60_000) };
    await hooks().recordAttempt(deliveryId, attempt);
    await hooks().recordAttempt(deliveryId, attempt);
    expect((await hooks().listForAccount("acct_d5", { limit: 10 }))[0]!.history).toHaveLength(1);
  });

  it("lists an account's deliveries newest first, pending ones with their next time, and no one else's", async () => {
    await hooks().rotateSecret("acct_d6");
    const older = await finishedWithWebhook("acct_d6", '{"i":1}');
    await sql`update webhook_deliveries set created_at = now() - interval '1 minute' where id = ${older.deliveryId}`.execute(t.db);
    const newer = await finishedWithWebhook("acct_d6", '{"i":2}');
    await finishedWithWebhook("acct_other", '{"i":3}');
    const listed = await hooks().listForAccount("acct_d6", { limit: 10 });
    expect(listed.map((d) => d.id)).toEqual([newer.deliveryId, older.deliveryId]);
    expect(listed[0]).toMatchObject({ state: "pending", attempts: 0, nextAttemptAt: expect.any(Date), history: [] });
    expect(await hooks().listForAccount("acct_d6", { limit: 1 })).toHaveLength(1);
    expect(await hooks().listForAccount("acct_none", { limit: 10 })).toEqual([]);
  });

  it("fails a delivery that can never be sent: no secret to sign with, or no stored result", async () => {
    const noSecret = await finishedWithWebhook("acct_no_secret", '{"n":3}');
    expect(await hooks().claimDue(LEASE_MS)).toBeNull();
    expect(await delivery(noSecret.deliveryId)).toMatchObject({ state: "failed", last_error: "the account has no webhook secret" });

    await hooks().rotateSecret("acct_no_result");
    const noResult = await finishedWithWebhook("acct_no_result", "", "failed");
    expect(await hooks().claimDue(LEASE_MS)).toBeNull();
    expect(await delivery(noResult.deliveryId)).toMatchObject({ state: "failed", last_error: "the request has no stored result" });
  });

  it("delivers a failed request's stored status body as its result", async () => {
    await hooks().rotateSecret("acct_failed_body");
    const status = JSON.stringify({ object: "request", status: "failed", error: "it failed" });
    const { deliveryId } = await finishedWithWebhook("acct_failed_body", status, "failed");
    expect(await hooks().claimDue(LEASE_MS)).toMatchObject({ id: deliveryId, body: status, resultStatus: 200 });
  });
});
