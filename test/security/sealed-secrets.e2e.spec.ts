import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "@adrank/sdk";
import { makeSelfSignedCert } from "../../packages/images/test/support/self-signed-cert.ts";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../../services/gateway/test/webhooks/support/webhook-receiver.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { eventually } from "../support/faults.ts";
import { creative } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";

// Issue 31, attack 10 (sealed webhook secrets): the signing secrets were stored in plain text,
// so a database dump or a read-only SQL injection anywhere let an attacker forge any tenant's
// webhooks. Now the console seals each secret under ADRANK_SECRETS_KEY (AES-256-GCM, bound to
// the account) and the gateway, which has the same key, opens it to sign. Rows from before
// stay usable: a gateway seals them at start, and when a delivery reads one.

const KEY = randomBytes(32).toString("hex");

describe("webhook signing secrets are sealed at rest (issue 31, attack 10)", () => {
  let stack: Stack;
  let certDir: string;
  let receiver: WebhookReceiver;
  const cert = makeSelfSignedCert();

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), "sealed-secrets-"));
    writeFileSync(join(certDir, "ca.pem"), cert.cert);
    stack = await startStack({
      voterEnv: false,
      refinementEnv: false,
      // Both the console and the gateway read it.
      env: { ADRANK_SECRETS_KEY: KEY },
      dashboardEnv: {},
      gatewayEnv: { WEBHOOK_ALLOW_LOOPBACK: "true", WEBHOOK_CA_FILE: join(certDir, "ca.pem"), WEBHOOK_POLL_MS: "100" },
    });
    receiver = await startWebhookReceiver(cert);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  }, 60_000);

  const storedRow = (accountId: string) => stack.database.db.selectFrom("webhook_secrets").select(["secret", "previous_secret"]).where("account_id", "=", accountId).executeTakeFirstOrThrow();

  /** An asynchronous rank with a webhook; resolves with the webhook the receiver got. */
  async function rankWithWebhook(key: string, variant: number): Promise<ReceivedWebhook> {
    const res = await fetch(`${stack.baseUrl}/api/v1/rank`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ assets: [{ url: creative(variant), id: "a0" }], audience: { name: "Sealed" }, refine_close_pairs: false, async: true, webhook_url: receiver.url(`/v${variant}`) }),
    });
    const body = (await res.json()) as { request_id: string };
    expect(res.status, `${JSON.stringify(body)}\n${stack.output()}`).toBe(202);
    return eventually(async () => receiver.received.find((h) => h.headers["adrank-request-id"] === body.request_id), 30_000, "the webhook");
  }

  /** A console user: its session, CSRF token, account and an API key made in the console. */
  async function consoleUser(email: string) {
    const signup = await fetch(`${stack.dashboardUrl}/console/api/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: "correct horse battery" }) });
    expect(signup.status, stack.output()).toBe(201);
    const cookie = signup.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const me = (await (await fetch(`${stack.dashboardUrl}/console/api/me`, { headers: { cookie } })).json()) as { accountId: string; csrfToken: string };
    const call = async (path: string, body?: unknown) => {
      const res = await fetch(`${stack.dashboardUrl}/console/api${path}`, {
        method: "POST",
        headers: { cookie, "x-csrf-token": me.csrfToken, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const key = await call("/keys", { name: "sealed" });
    expect(key.status).toBe(201);
    return { accountId: me.accountId, key: key.json.key as string, call };
  }

  it("a secret made and rotated in the console is not in its row, and deliveries verify with what the customer was shown", async () => {
    const user = await consoleUser("sealed@example.com");
    const created = await user.call("/webhooks/secret");
    expect(created.status).toBe(201);
    const shown = created.json.secret as string;
    expect(shown).toMatch(/^whsec_/);

    const row = await storedRow(user.accountId);
    console.log(`sealed: the console showed ${shown.slice(0, 10)}…; the row holds ${row.secret.slice(0, 24)}… (${row.secret.length} characters)`);
    expect(row.secret).not.toContain(shown.slice("whsec_".length));
    expect(row.secret).not.toMatch(/^whsec_/);
    const hook = await rankWithWebhook(user.key, 1);
    expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, shown)).toMatchObject({ ok: true });

    const rotated = await user.call("/webhooks/secret/rotate");
    expect(rotated.status).toBe(200);
    const fresh = rotated.json.secret as string;
    const after = await storedRow(user.accountId);
    for (const secret of [shown, fresh]) expect(JSON.stringify(after)).not.toContain(secret.slice("whsec_".length));
    const both = await rankWithWebhook(user.key, 2);
    for (const secret of [fresh, shown]) expect(await verifyWebhookSignature(both.body, both.headers["adrank-signature"] as string, secret)).toMatchObject({ ok: true });
  }, 90_000);

  it("a plain row from before still signs, and is sealed by the delivery that reads it", async () => {
    const account = await stack.createAccountDirect({ credits: 20 });
    const plain = `whsec_${randomBytes(32).toString("base64url")}`;
    await stack.database.db.insertInto("webhook_secrets").values({ account_id: account.accountId, secret: plain }).execute();
    const hook = await rankWithWebhook(account.key, 3);
    expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, plain)).toMatchObject({ ok: true });
    const row = await storedRow(account.accountId);
    expect(row.secret).not.toContain(plain.slice("whsec_".length));
    // Sealed, it still signs the same.
    const again = await rankWithWebhook(account.key, 4);
    expect(await verifyWebhookSignature(again.body, again.headers["adrank-signature"] as string, plain)).toMatchObject({ ok: true });
  }, 90_000);

  it("a gateway that starts seals every plain row, deliveries or not", async () => {
    const accountId = `acct_plain_${randomBytes(4).toString("hex")}`;
    const plain = `whsec_${randomBytes(32).toString("base64url")}`;
    await stack.database.db.insertInto("webhook_secrets").values({ account_id: accountId, secret: plain }).execute();
    await stack.startReplica("gateway");
    const row = await eventually(
      async () => {
        const r = await storedRow(accountId);
        return r.secret.includes(plain.slice("whsec_".length)) ? undefined : r;
      },
      30_000,
      "the row to be sealed",
    );
    expect(row.secret).not.toMatch(/^whsec_/);
  }, 90_000);

  it("the gateway and the console refuse to start in production without ADRANK_SECRETS_KEY", () => {
    for (const main of ["services/gateway/src/main.ts", "services/dashboard/src/main.ts"]) {
      const run = spawnSync(process.execPath, [main], {
        cwd: REPO_ROOT,
        // Nothing listens there: the check must come before any connection.
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ADRANK_SECRETS_KEY: "", DATABASE_URL: "postgres://nobody@127.0.0.1:9/none", NATS_URL: "nats://127.0.0.1:9" },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(run.status, `${main}: ${run.stderr}`).toBe(1);
      expect(run.stderr, main).toMatch(/ADRANK_SECRETS_KEY: is required in production/);
    }
  }, 60_000);
});
