import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PREVIOUS_SECRET_GRACE_HOURS, requestsRepository, webhooksRepository, type SecretSealer } from "../src/repositories/index.ts";
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

/**
 * Stands in for webhookSecretBox (AES-GCM, tested in @adrank/runtime): the sealed form is not
 * the secret, and opens only with the same key and account.
 */
function testSealer(key: string): SecretSealer {
  return {
    seal: (plaintext, context) => `v1.${Buffer.from(JSON.stringify([key, context, plaintext])).toString("base64url")}`,
    open: (sealed, context) => {
      const [k, c, p] = JSON.parse(Buffer.from(sealed.slice(3), "base64url").toString()) as string[];
      return k === key && c === context ? p! : null;
    },
  };
}
const box = testSealer("key-1");

const CLAIM = { leaseMs: 30_000, perAccount: 2 };
const hooks = () => webhooksRepository(t.db, box);
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
    expect(box.open(row.secret, "acct_rot")).toBe(second);
    expect(box.open(row.previous_secret!, "acct_rot")).toBe(first);
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

    const [a, b] = await Promise.all([hooks().claimDue(CLAIM), hooks().claimDue(CLAIM)]);
    const claimed = [a, b].filter((c) => c !== null);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ id: deliveryId, requestId, accountId: "acct_d1", url: HOOK_URL, attempts: 0, resultStatus: 200, secrets: [secret] });
    expect(claimed[0]!.body).toBe(body);
    expect(await hooks().claimDue(CLAIM)).toBeNull();

    // A worker that died mid-attempt: once its lease runs out the delivery is due again.
    await sql`update webhook_deliveries set lease_expires_at = now() - interval '1 second' where id = ${deliveryId}`.execute(t.db);
    expect(await hooks().claimDue(CLAIM)).toMatchObject({ id: deliveryId, attempts: 0 });
  });

  it("signs with the rotated-out secret too while it is valid", async () => {
    const old = await hooks().rotateSecret("acct_d2");
    const current = await hooks().rotateSecret("acct_d2");
    const { deliveryId } = await finishedWithWebhook("acct_d2", '{"ok":true}');
    expect((await hooks().claimDue(CLAIM))!.secrets).toEqual([current, old]);

    await sql`update webhook_secrets set previous_valid_until = now() - interval '1 second' where account_id = 'acct_d2'`.execute(t.db);
    await sql`update webhook_deliveries set lease_expires_at = null where id = ${deliveryId}`.execute(t.db);
    expect((await hooks().claimDue(CLAIM))!.secrets).toEqual([current]);
  });

  it("records a failed attempt as due again later, a 2xx as delivered, and keeps every attempt", async () => {
    await hooks().rotateSecret("acct_d3");
    const { requestId, deliveryId } = await finishedWithWebhook("acct_d3", '{"n":1}');
    const first = await hooks().claimDue(CLAIM);
    const t1 = new Date(Date.now() - 1_000);
    const retryAt = new Date(Date.now() + 10_000);
    await hooks().recordAttempt(first!.id, { attempt: 1, attemptedAt: t1, status: 503, error: "HTTP 503", durationMs: 41, delivered: false, nextAttemptAt: retryAt });
    expect(await delivery(deliveryId)).toMatchObject({ state: "pending", attempts: 1, next_attempt_at: retryAt, lease_expires_at: null, last_status: 503, last_error: "HTTP 503" });
    // Not due before its time.
    expect(await hooks().claimDue(CLAIM)).toBeNull();

    await dueNow(deliveryId);
    const second = await hooks().claimDue(CLAIM);
    expect(second).toMatchObject({ id: deliveryId, attempts: 1 });
    const t2 = new Date();
    await hooks().recordAttempt(deliveryId, { attempt: 2, attemptedAt: t2, status: 204, error: null, durationMs: 12, delivered: true, nextAttemptAt: null });
    expect(await delivery(deliveryId)).toMatchObject({ state: "delivered", attempts: 2, delivered_at: t2, lease_expires_at: null, last_status: 204, last_error: null });
    await dueNow(deliveryId);
    expect(await hooks().claimDue(CLAIM)).toBeNull();
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
    await hooks().claimDue(CLAIM);
    await hooks().recordAttempt(deliveryId, { attempt: 17, attemptedAt: new Date(), status: null, error: "timed out after 10 s", durationMs: 10_000, delivered: false, nextAttemptAt: null });
    expect(await delivery(deliveryId)).toMatchObject({ state: "failed", attempts: 17, last_status: null, last_error: "timed out after 10 s" });
    await dueNow(deliveryId);
    expect(await hooks().claimDue(CLAIM)).toBeNull();
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
    expect(await hooks().claimDue(CLAIM)).toBeNull();
    expect(await delivery(noSecret.deliveryId)).toMatchObject({ state: "failed", last_error: "the account has no webhook secret" });

    await hooks().rotateSecret("acct_no_result");
    const noResult = await finishedWithWebhook("acct_no_result", "", "failed");
    expect(await hooks().claimDue(CLAIM)).toBeNull();
    expect(await delivery(noResult.deliveryId)).toMatchObject({ state: "failed", last_error: "the request has no stored result" });
  });

  it("delivers a failed request's stored status body as its result", async () => {
    await hooks().rotateSecret("acct_failed_body");
    const status = JSON.stringify({ object: "request", status: "failed", error: "it failed" });
    const { deliveryId } = await finishedWithWebhook("acct_failed_body", status, "failed");
    expect(await hooks().claimDue(CLAIM)).toMatchObject({ id: deliveryId, body: status, resultStatus: 200 });
  });
});

describe("signing secrets at rest", () => {
  const row = (accountId: string) => t.db.selectFrom("webhook_secrets").select(["secret", "previous_secret"]).where("account_id", "=", accountId).executeTakeFirstOrThrow();

  it("stores the secret and the rotated-out one sealed, bound to the account", async () => {
    const first = await hooks().rotateSecret("acct_seal");
    const second = await hooks().rotateSecret("acct_seal");
    const stored = await row("acct_seal");
    expect(JSON.stringify(stored)).not.toContain(first.slice(6));
    expect(JSON.stringify(stored)).not.toContain(second.slice(6));
    expect(stored.secret).toMatch(/^v1\./);
    expect(box.open(stored.secret, "acct_seal")).toBe(second);
    expect(box.open(stored.secret, "acct_other")).toBeNull();
  });

  it("refuses a value that is neither sealed nor a marked plain secret", async () => {
    await expect(sql`insert into webhook_secrets (account_id, secret) values ('acct_bad_form', 'not-a-secret')`.execute(t.db)).rejects.toThrow(/webhook_secrets_secret_form/);
  });

  it("without a secret box it answers whether a secret exists, and refuses to make or read one", async () => {
    await hooks().rotateSecret("acct_nobox");
    const bare = webhooksRepository(t.db);
    expect(await bare.hasSecret("acct_nobox")).toBe(true);
    await expect(bare.rotateSecret("acct_nobox")).rejects.toThrow(/without a secret box/);
  });
});

describe("plain secrets from before sealing", () => {
  beforeEach(async () => {
    await t.db.deleteFrom("webhook_deliveries").execute();
  });
  const row = (accountId: string) => t.db.selectFrom("webhook_secrets").select(["secret", "previous_secret"]).where("account_id", "=", accountId).executeTakeFirstOrThrow();
  const plainRow = (accountId: string, secret: string, previous: string | null, previousValid: boolean) =>
    sql`insert into webhook_secrets (account_id, secret, previous_secret, previous_valid_until)
        values (${accountId}, ${secret}, ${previous}, ${previous === null ? null : sql`now() + ${previousValid ? sql`interval '1 hour'` : sql`interval '-1 hour'`}`})`.execute(t.db);

  it("still sign a delivery, and are sealed when read", async () => {
    await plainRow("acct_legacy", "whsec_legacyCurrent", "whsec_legacyOld", true);
    await finishedWithWebhook("acct_legacy", '{"n":9}');
    expect((await hooks().claimDue(CLAIM))!.secrets).toEqual(["whsec_legacyCurrent", "whsec_legacyOld"]);
    const stored = await row("acct_legacy");
    expect(JSON.stringify(stored)).not.toContain("legacy");
    expect(box.open(stored.secret, "acct_legacy")).toBe("whsec_legacyCurrent");
    expect(box.open(stored.previous_secret!, "acct_legacy")).toBe("whsec_legacyOld");
  });

  it("are all sealed by sealPlainSecrets, an expired rotated-out one too, and a second run finds none", async () => {
    await plainRow("acct_sweep_1", "whsec_sweepOne", null, false);
    await plainRow("acct_sweep_2", "whsec_sweepTwo", "whsec_sweepExpired", false);
    expect(await hooks().sealPlainSecrets()).toBeGreaterThanOrEqual(2);
    expect(box.open((await row("acct_sweep_1")).secret, "acct_sweep_1")).toBe("whsec_sweepOne");
    const two = await row("acct_sweep_2");
    expect(box.open(two.secret, "acct_sweep_2")).toBe("whsec_sweepTwo");
    expect(box.open(two.previous_secret!, "acct_sweep_2")).toBe("whsec_sweepExpired");
    expect(await hooks().sealPlainSecrets()).toBe(0);
    const plain = await t.db.selectFrom("webhook_secrets").select("account_id").where((w) => w.or([w("secret", "like", "whsec%"), w("previous_secret", "like", "whsec%")])).execute();
    expect(plain).toEqual([]);
  });

  it("a secret sealed under another key is claimed with no secret to sign with, not sent in the clear", async () => {
    await hooks().rotateSecret("acct_otherkey");
    const { deliveryId } = await finishedWithWebhook("acct_otherkey", '{"n":10}');
    expect(await webhooksRepository(t.db, testSealer("key-2")).claimDue(CLAIM)).toMatchObject({ id: deliveryId, secrets: [] });
  });
});

describe("fair claiming", () => {
  beforeEach(async () => {
    await t.db.deleteFrom("webhook_deliveries").execute();
  });

  /** `n` due deliveries of one account, the first made `agoS` seconds ago. */
  async function backlog(accountId: string, n: number, agoS: number): Promise<string[]> {
    const ids = [];
    for (let i = 0; i < n; i++) {
      const { deliveryId } = await finishedWithWebhook(accountId, `{"i":${i}}`);
      await sql`update webhook_deliveries set next_attempt_at = now() - make_interval(secs => ${agoS - i}) where id = ${deliveryId}`.execute(t.db);
      ids.push(deliveryId);
    }
    return ids;
  }

  it("serves the accounts in turn: another account's newer delivery comes before the rest of a backlog", async () => {
    await hooks().rotateSecret("acct_fair_a");
    await hooks().rotateSecret("acct_fair_b");
    const a = await backlog("acct_fair_a", 5, 600);
    const [b] = await backlog("acct_fair_b", 1, 1);
    const wide = { ...CLAIM, perAccount: 10 };
    const order = [];
    for (let i = 0; i < 6; i++) order.push((await hooks().claimDue(wide))!.id);
    expect(order[0]).toBe(a[0]);
    expect(order[1]).toBe(b);
    expect(order.slice(2)).toEqual(a.slice(1));
    expect(await hooks().claimDue(wide)).toBeNull();
  });

  it("gives one account at most `perAccount` attempts in flight; a recorded attempt frees its slot", async () => {
    await hooks().rotateSecret("acct_cap_a");
    await hooks().rotateSecret("acct_cap_b");
    const a = await backlog("acct_cap_a", 4, 600);
    const [b] = await backlog("acct_cap_b", 1, 1);
    const claimed = [];
    for (let i = 0; i < 3; i++) claimed.push((await hooks().claimDue(CLAIM))!);
    expect(claimed.map((c) => c.id).sort()).toEqual([a[0], a[1], b].sort());
    // acct_cap_a holds its two slots; acct_cap_b has nothing more.
    expect(await hooks().claimDue(CLAIM)).toBeNull();
    await hooks().recordAttempt(a[0]!, { attempt: 1, attemptedAt: new Date(), status: null, error: "timed out after 10 s", durationMs: 10_000, delivered: false, nextAttemptAt: new Date(Date.now() + 60_000) });
    expect(await hooks().claimDue(CLAIM)).toMatchObject({ id: a[2] });
  });

  it("takes the account served longest ago first", async () => {
    for (const acct of ["acct_turn_a", "acct_turn_b"]) await hooks().rotateSecret(acct);
    await sql`insert into webhook_account_turns (account_id, served_at) values ('acct_turn_a', now() - interval '1 minute'), ('acct_turn_b', now() - interval '1 hour')
              on conflict (account_id) do update set served_at = excluded.served_at`.execute(t.db);
    await backlog("acct_turn_a", 1, 600);
    const [b] = await backlog("acct_turn_b", 1, 1);
    expect((await hooks().claimDue(CLAIM))!.id).toBe(b);
  });

  it("never hands one delivery to two claims at once", async () => {
    for (const acct of ["acct_race_a", "acct_race_b", "acct_race_c"]) {
      await hooks().rotateSecret(acct);
      await backlog(acct, 3, 100);
    }
    const claims = await Promise.all(Array.from({ length: 12 }, () => hooks().claimDue({ ...CLAIM, perAccount: 3 })));
    const ids = claims.filter((c) => c !== null).map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("counts an account's deliveries still to be made: pending ones and running requests with a webhook_url, up to the cap", async () => {
    const requests = requestsRepository(t.db);
    await hooks().rotateSecret("acct_pending");
    const pending = await backlog("acct_pending", 3, 10);
    await hooks().recordAttempt(pending[0]!, { attempt: 1, attemptedAt: new Date(), status: 200, error: null, durationMs: 5, delivered: true, nextAttemptAt: null });
    for (const webhookUrl of [HOOK_URL, HOOK_URL, undefined]) {
      await requests.start(
        { requestId: randomUUID(), accountId: "acct_pending", keyId: "key_w", operation: "rank", mode: "async", fingerprint: "fp", progressTotal: 1, leaseOwner: "gw", leaseMs: 15_000, acceptedBody: "{}", requestBody: "{}", ...(webhookUrl ? { webhookUrl } : {}) },
        null,
        24,
      );
    }
    expect(await hooks().pendingDeliveries("acct_pending", 100)).toBe(4);
    expect(await hooks().pendingDeliveries("acct_pending", 3)).toBe(3);
    expect(await hooks().pendingDeliveries("acct_nobody", 100)).toBe(0);
  });
});
