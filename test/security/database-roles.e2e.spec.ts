import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, schemaChangingRole, type DatabaseService } from "@adrank/db";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { verifyWebhookSignature } from "@adrank/sdk";
import { makeSelfSignedCert } from "../../packages/images/test/support/self-signed-cert.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../services/gateway/test/webhooks/support/webhook-receiver.ts";
import { eventually } from "../support/faults.ts";
import { call, rank } from "../support/http.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, withSearchPath, type Stack } from "../support/stack.ts";

// Issue 31, attack 10: the internet-facing gateway held the migration (owner) role, so anyone who
// took it over (it decodes hostile images) could drop or alter every table and read the console's
// password hashes. Now the migrate step grants each service a group role with only the table
// rights it needs (packages/db/src/service-roles.ts) and, with --login-roles as compose runs it,
// makes each service's login role from its connection string. Here the migrate CLI does that
// for a schema of the test's own, the gateway's role is refused every schema change and every
// table it does not need, and the real services, each on its own role, serve a customer end to end.

const run = promisify(execFile);
const MIGRATE_CLI = join(REPO_ROOT, "packages/db/src/migrate-cli.ts");
/** Login roles of these tests, made (or found, from an earlier run) by the migrate CLI; the local cluster trusts 127.0.0.1, so the password is only stored. */
const LOGIN: Record<DatabaseService, string> = { gateway: "adrank_gateway_e2e", ledger: "adrank_ledger_e2e", dashboard: "adrank_dashboard_e2e", admin: "adrank_admin_e2e" };
const PASSWORD = "e2e-only-not-a-secret";
const audience = { name: "Trail runners" };

const asUser = (url: string, user: string) => {
  const u = new URL(url);
  u.username = user;
  u.password = PASSWORD;
  return u.toString();
};
const isDatabaseService = (s: string): s is DatabaseService => s in LOGIN;

describe("each service connects with a database role of its own", () => {
  let database: TestDatabase;
  let ownerUrl: string;
  let migrated: string;
  let stack: Stack;
  let receiver: WebhookReceiver;
  let certDir: string;
  let asGateway: ReturnType<typeof createDb>;
  let consoleUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase("roles");
    ownerUrl = withSearchPath(database.connectionString, database.schema);
    // The migrate step as compose runs it: the owner's DATABASE_URL and every service's own.
    const logins = Object.fromEntries(Object.entries(LOGIN).map(([service, user]) => [`${service.toUpperCase()}_DATABASE_URL`, asUser(ownerUrl, user)]));
    const { stdout, stderr } = await run(process.execPath, [MIGRATE_CLI, "--login-roles"], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", DATABASE_URL: ownerUrl, ...logins }, timeout: 60_000 });
    migrated = stdout + stderr;

    const cert = makeSelfSignedCert();
    certDir = mkdtempSync(join(tmpdir(), "roles-ca-"));
    writeFileSync(join(certDir, "ca.pem"), cert.cert);
    receiver = await startWebhookReceiver(cert);
    stack = await startStack({
      database,
      // Scorer and friends never touch Postgres: they get an address that leads nowhere.
      servicesDatabaseUrl: (url, service) => (isDatabaseService(service) ? asUser(url, LOGIN[service]) : "postgres://nobody@127.0.0.1:1/none"),
      voterEnv: false,
      refinementEnv: false,
      gatewayEnv: { WEBHOOK_ALLOW_LOOPBACK: "true", WEBHOOK_CA_FILE: join(certDir, "ca.pem"), WEBHOOK_POLL_MS: "100" },
    });
    // The console once the gateway is up: fewer processes starting at once on a busy machine.
    consoleUrl = (await stack.startReplica("dashboard", { DASHBOARD_SIGNUP_CREDITS: "0" })).baseUrl;
    asGateway = createDb({ connectionString: asUser(database.connectionString, LOGIN.gateway), schema: database.schema, max: 1 });
  }, 120_000);

  afterAll(async () => {
    await asGateway?.destroy();
    await stack?.stop();
    await receiver?.close();
    await database?.destroy();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  }, 60_000);

  it("the migrate step grants the group roles and makes each service's login role", () => {
    expect(migrated).toContain(`service roles granted in schema "${database.schema}": adrank_gateway, adrank_ledger, adrank_dashboard, adrank_admin`);
    for (const [service, user] of Object.entries(LOGIN)) expect(migrated).toMatch(new RegExp(`login role ${user} (created|updated): member of adrank_${service}`));
    expect(migrated).not.toContain("no service role may use");
    expect(migrated).not.toContain(PASSWORD);
  });

  it("the gateway's role cannot create, alter, drop or truncate a table, nor read or write what it does not need", async () => {
    const refused = async (statement: string) => {
      const err = await sql.raw(statement).execute(asGateway).then(
        () => null,
        (e: { code?: string; message: string }) => e,
      );
      expect(err, statement).not.toBeNull();
      // 42501: insufficient privilege (or "must be owner").
      expect(err!.code, `${statement}: ${err!.message}`).toBe("42501");
    };
    await refused("create table stolen (id int)");
    await refused("create schema stolen");
    await refused("drop table api_keys");
    await refused("alter table api_requests add column stolen text");
    await refused("alter table api_keys drop column hash");
    await refused("truncate api_requests");
    await refused("create index stolen on api_requests (fingerprint)");
    // The console's people: password hashes, sessions, the sealed playground keys.
    await refused("select password_hash from dashboard_users");
    await refused("select token_hash from dashboard_sessions");
    await refused("select encrypted_key from dashboard_playground_keys");
    // Minting an account or a key is the admin command's and the console's, never the gateway's.
    await refused("insert into accounts (id, name) values ('acct_stolen', 'x')");
    await refused("insert into api_keys (id, account_id, name, lookup, hash, last_four) values ('key_stolen', 'acct_x', 'x', 'x', 'x', 'x')");
    await refused("delete from api_keys");
    // The ledger's mirror: balances are the ledger's to write.
    await refused("update ledger_accounts set granted = granted + 1000000");
    await refused("select * from ledger_events");
    await refused("create or replace function stolen() returns int language sql as 'select 1'");
    await refused("set role postgres");

    // What a rank needs works.
    await expect(sql`select count(*) from api_keys`.execute(asGateway)).resolves.toBeDefined();
    await expect(sql`select count(*) from api_requests`.execute(asGateway)).resolves.toBeDefined();
    // And the check every service makes at start agrees; the owner is the one it warns about.
    expect(await schemaChangingRole(asGateway)).toBeNull();
    expect(await schemaChangingRole(database.db)).toMatch(/^the database role "postgres" is a superuser, owns tables in/);
  });

  it("admin, console, gateway and ledger serve a customer end to end on their own roles, and Postgres refuses none of them", async () => {
    /** eventually(), with what the services printed when it gives up. */
    const waitFor = <T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>) =>
      eventually(probe, timeoutMs, what).catch((err: Error) => {
        throw new Error(`${err.message}\n${stack.output()}`);
      });
    // The admin command makes an account and a key (admin role) and grants credits.
    const paying = await stack.createAccount({ credits: 50, name: "roles" });
    const ranked = await rank(stack.baseUrl, paying.key, { assets: [{ url: creative(1) }, { url: creative(2) }], audience, refine_close_pairs: false });
    expect(ranked.status, stack.output()).toBe(200);

    // The console: sign-up, a key, a webhook signing secret (dashboard role); the admin grants credits.
    const signup = await call(consoleUrl, "POST", "/console/api/signup", { json: { email: "roles@example.com", password: "correct horse battery" } });
    expect(signup.status, stack.output()).toBe(201);
    const cookie = signup.headers.get("set-cookie")!.split(";")[0]!;
    const me = await call(consoleUrl, "GET", "/console/api/me", { headers: { cookie } });
    const session = { cookie, "x-csrf-token": me.body.csrfToken as string };
    const key = await call(consoleUrl, "POST", "/console/api/keys", { headers: session, json: { name: "roles" } });
    expect(key.status, stack.output()).toBe(201);
    const secret = await call(consoleUrl, "POST", "/console/api/webhooks/secret", { headers: session, json: {} });
    expect(secret.status, stack.output()).toBe(201);
    await stack.admin("grant", "--account", me.body.accountId as string, "--credits", "20");

    // The gateway runs an asynchronous rank and signs its webhook with the console's secret.
    const accepted = await rank(stack.baseUrl, key.body.key as string, { assets: [{ url: creative(3) }], audience, refine_close_pairs: false, async: true, webhook_url: receiver.url("/roles") });
    expect(accepted.status, stack.output()).toBe(202);
    const requestId = accepted.body.request_id as string;
    const hook = await waitFor("the webhook", 30_000, async () => receiver.received.find((h) => h.headers["adrank-request-id"] === requestId));
    expect(await verifyWebhookSignature(hook.body, hook.headers["adrank-signature"] as string, secret.body.secret as string)).toMatchObject({ ok: true });

    // The console reads the history, the deliveries and the ledger's mirror of the usage.
    const requests = await call(consoleUrl, "GET", "/console/api/requests", { headers: { cookie } });
    expect(requests.body.requests.map((r: { requestId: string }) => r.requestId)).toContain(requestId);
    const deliveries = await waitFor("the delivery to show as delivered", 10_000, async () => {
      const r = await call(consoleUrl, "GET", "/console/api/webhooks/deliveries", { headers: { cookie } });
      return r.body.deliveries?.[0]?.state === "delivered" ? r.body.deliveries : undefined;
    });
    expect(deliveries[0].requestId).toBe(requestId);
    const usage = await waitFor("the console to show the usage", 10_000, async () => {
      const r = await call(consoleUrl, "GET", "/console/api/usage", { headers: { cookie } });
      return r.body.balance?.used > 0 ? r.body.balance : undefined;
    });
    expect(usage).toMatchObject({ granted: 20, used: 1 });

    // Gateway and console are connected as their own roles right now (the gateway's webhook worker
    // polls every 100 ms; idle connections close after 10 s, so the ledger's may be gone).
    const { rows } = await sql<{ app: string; user: string }>`
      select distinct application_name as app, usename as "user" from pg_stat_activity
      where application_name in ('adrank-gateway', 'adrank-dashboard') and usename like 'adrank\\_%\\_e2e'`.execute(database.db);
    expect(rows.map((r) => `${r.app} ${r.user}`).sort()).toEqual(["adrank-dashboard adrank_dashboard_e2e", "adrank-gateway adrank_gateway_e2e"]);
    // No process was refused by Postgres, and none warned that its role could change the schema
    // (each checks at start: a superuser or owner would have said so).
    expect(stack.output()).not.toMatch(/permission denied|must be owner/);
    expect(stack.output()).not.toContain("could change the schema");
  });
});
