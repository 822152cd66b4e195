import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { natsAuthorizationConf } from "@adrank/infra/nats-auth";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, NATS_USERS, topology, type NatsConnection, type NatsCredentials, type NatsUser, type Topology } from "@adrank/messaging";
import { canConnect } from "../support/faults.ts";
import { call, rank } from "../support/http.ts";
import { NATS_SERVER } from "../support/nats-cluster.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { freePort, startStack, type Stack } from "../support/stack.ts";

// Attack 9 of issue 31: NATS had no authentication and no TLS, so any pod (or a compromised
// gateway, which decodes hostile images) could call the ledger's grant subject, read every
// tenant's jobs or forge results. Here a nats-server of the test's own runs with TLS and the
// users rendered from @adrank/messaging's servicePermissions (what compose and Helm deploy),
// the real services run a rank, a pairwise request and a console sign-up through it, and each
// service's user is shown refused what it must not do.

const namespace = `t${randomBytes(5).toString("hex")}`;
const topo: Topology = topology(namespace);
const passwords = Object.fromEntries(NATS_USERS.map((u) => [u, randomBytes(18).toString("base64url")])) as Record<NatsUser, string>;
/** Deletes the namespace's streams at the end: every permission, as the stack harness needs. */
const harness = { user: "harness", password: randomBytes(18).toString("base64url") };
const SIGNUP_CREDITS = 40;

let dir: string;
let server: ChildProcess;
let url: string;
let ca: string;
let logFile: string;
let stack: Stack;
const opened: NatsConnection[] = [];

const as = (user: NatsUser): Record<string, string> => ({ NATS_USER: user, NATS_PASSWORD: passwords[user] });
const credentials = (user: NatsUser): NatsCredentials => ({ ...as(user), NATS_TLS_CA: ca });
async function connectAs(user: NatsUser, name = `attacker-as-${user}`): Promise<NatsConnection> {
  const nc = await connectToNats({ url, name, credentials: credentials(user) });
  opened.push(nc);
  return nc;
}
const serverLog = () => readFileSync(logFile, "utf8");

/** Resolves with the error the subscription was closed with, or null if the server kept it (a flush later). */
async function subscribeRefusal(nc: NatsConnection, subject: string): Promise<Error | null> {
  const sub = nc.subscribe(subject);
  await nc.flush();
  // The server's -ERR arrives before the flush's PONG: a refused subscription is closed by now.
  const closed = await Promise.race([sub.closed, new Promise<"open">((r) => setTimeout(() => r("open"), 200))]);
  if (closed === "open") {
    sub.unsubscribe();
    return null;
  }
  return closed instanceof Error ? closed : null;
}

/** Publishes as `nc` and reports whether a harness subscriber (every permission) received it. */
async function delivered(nc: NatsConnection, subject: string): Promise<boolean> {
  const spy = stack.nc.subscribe(subject, { max: 1 });
  await stack.nc.flush();
  nc.publish(subject, new TextEncoder().encode("{}"));
  await nc.flush();
  const got = await Promise.race([(async () => { for await (const _ of spy) return true; return false; })(), new Promise<boolean>((r) => setTimeout(() => r(false), 500))]);
  spy.unsubscribe();
  return got;
}

describe("NATS users and permissions (issue 31, attack 9)", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "adrank-nats-auth-"));
    execFileSync("bash", [join(REPO_ROOT, "scripts/deploy/nats-tls.sh"), dir]);
    ca = join(dir, "ca.pem");
    logFile = join(dir, "nats.log");
    const port = await freePort();
    url = `tls://127.0.0.1:${port}`;
    const conf = join(dir, "nats.conf");
    writeFileSync(
      conf,
      [
        `listen: 127.0.0.1:${port}`,
        `log_file: "${logFile}"`,
        `jetstream { store_dir: "${join(dir, "js")}" }`,
        `tls { cert_file: "${join(dir, "server-cert.pem")}", key_file: "${join(dir, "server-key.pem")}" }`,
        // As compose renders it (the console grants sign-up credits), with literal passwords.
        natsAuthorizationConf({ namespace, passwords, consoleSignupGrants: true, extraUsers: [harness] }),
      ].join("\n"),
    );
    server = spawn(NATS_SERVER, ["-c", conf], { stdio: "ignore" });
    for (let i = 0; i < 100 && !(await canConnect(port)); i++) await new Promise((r) => setTimeout(r, 100));

    stack = await startStack({
      namespace,
      natsUrl: url,
      natsCredentials: { NATS_USER: harness.user, NATS_PASSWORD: harness.password, NATS_TLS_CA: ca },
      // Every process trusts the test's CA; the admin CLI (stack.admin) signs in as the admin user.
      env: { NATS_TLS_CA: ca, ...as("admin") },
      ledgerEnv: as("ledger"),
      gatewayEnv: as("gateway"),
      scorerEnv: as("scorer"),
      voterEnv: as("panel-voter"),
      refinementEnv: as("refinement"),
      dashboardEnv: { ...as("dashboard"), DASHBOARD_SIGNUP_CREDITS: String(SIGNUP_CREDITS) },
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(opened.map((nc) => nc.close()));
    await stack?.stop();
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it("the services, each signed in as its own user over TLS, run a rank with refinement, a pairwise panel and a console sign-up, refused nothing", async () => {
    const account = await stack.createAccount({ credits: 500 });
    const assets = [0, 1, 2].map((i) => ({ id: `a${i}`, url: creative(40 + i) }));
    assets.push({ id: "twin", url: creative(40) });
    const ranked = await rank(stack.baseUrl, account.key, { assets, audience: { name: "Trail runners" }, goal: "scroll-stopping", refine_close_pairs: true });
    expect(ranked.status, stack.output()).toBe(200);
    expect(ranked.body.errors).toEqual([]);
    expect(ranked.body.summary.close_pair_refinement.pairs_evaluated).toBeGreaterThanOrEqual(1);

    const pairs = [{ pair_id: "p", a: { id: "a", image_url: creative(50) }, b: { id: "b", image_url: creative(51) } }];
    const pairwise = await call(stack.baseUrl, "POST", "/api/v1/pairwise", { key: account.key, json: { pairs, audience: { name: "Trail runners" } } });
    expect(pairwise.status, stack.output()).toBe(200);
    expect(pairwise.body.pairs[0].status).toBe("done");

    const signup = await call(stack.dashboardUrl, "POST", "/console/api/signup", { json: { email: `${namespace}@example.com`, password: "a long enough pass phrase 7" } });
    expect(signup.status, stack.output()).toBe(201);
    const granted = await stack.ledger.balance({ accountId: signup.body.accountId });
    expect(granted.ok && granted.value.available).toBe(SIGNUP_CREDITS);

    expect((await call(stack.baseUrl, "GET", "/readyz")).status).toBe(200);
    // The server logs every refused publish or subscription; none came from a service.
    expect(serverLog().split("\n").filter((l) => /violation/i.test(l))).toEqual([]);
  }, 90_000);

  it("refuses a connection without credentials, and one with a wrong password", async () => {
    await expect(connectToNats({ url, name: "anonymous", credentials: { NATS_TLS_CA: ca } })).rejects.toThrow(/refused a connection without credentials/);
    await expect(connectToNats({ url, name: "guessing", credentials: { NATS_USER: "gateway", NATS_PASSWORD: "not-the-password", NATS_TLS_CA: ca } })).rejects.toThrow(/refused user "gateway"/);
  });

  it("refuses a connection that does not trust the server's certificate (TLS is required, and checked)", async () => {
    await expect(connectToNats({ url, name: "no-ca", credentials: as("gateway") })).rejects.toThrow(/certificate/i);
  });

  it("the gateway's user cannot grant credits: the grant request is refused and the balance is unchanged", async () => {
    const account = await stack.createAccount({ credits: 10 });
    const gateway = await connectAs("gateway");
    const ledger = createLedgerClient(gateway, topo, { timeoutMs: 2_000 });
    const refused = await ledger.grant({ accountId: account.accountId, grantId: `forged-${namespace}`, credits: 1_000_000 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused as Error).cause)).toMatch(/Permissions Violation for Publish to "[^"]*svc\.ledger\.grant"/);
    // A plain publish on the subject never reaches a subscriber either.
    expect(await delivered(gateway, topo.ledgerRpc.grant)).toBe(false);
    const balance = await stack.ledger.balance({ accountId: account.accountId });
    expect(balance.ok && balance.value.available).toBe(10);
    // What the gateway needs still works on the same connection.
    const own = await ledger.balance({ accountId: account.accountId });
    expect(own.ok && own.value.available).toBe(10);
  });

  it("the admin user can grant credits", async () => {
    const account = await stack.createAccount({ credits: 0 });
    const admin = await connectAs("admin");
    const granted = await createLedgerClient(admin, topo).grant({ accountId: account.accountId, grantId: `admin-${namespace}`, credits: 25 });
    expect(granted.ok && granted.value.available).toBe(25);
  });

  it("the gateway's user cannot subscribe to other services' subjects: the ledger's requests, others' replies, the ledger's events, jobs", async () => {
    const gateway = await connectAs("gateway");
    for (const subject of [topo.ledgerRpc.grant, topo.ledgerRpc.reserve, "_INBOX.>", "_INBOX.scorer.>", topo.ledgerAccountWildcard, topo.jobs.score, ">"]) {
      const refusal = await subscribeRefusal(gateway, subject);
      expect(refusal?.message, subject).toMatch(/Permissions Violation for Subscription/);
    }
    // Its own replies and the results it waits for are allowed.
    expect(await subscribeRefusal(gateway, topo.resultsWildcard("r1"))).toBeNull();
  });

  it("the gateway's user cannot forge a result or read the jobs queue through a consumer of its own", async () => {
    const gateway = await connectAs("gateway");
    expect(await delivered(gateway, topo.result("r1", "j1"))).toBe(false);
    const jsm = await jetstreamManager(gateway);
    await expect(jsm.consumers.add(topo.streams.jobs.name, { durable_name: "snoop", filter_subject: topo.jobs.score })).rejects.toThrow(/permission/i);
    await expect(jsm.streams.delete(topo.streams.ledger.name)).rejects.toThrow(/permission/i);
  });

  it.each([
    ["scorer", "grant"],
    ["panel-voter", "grant"],
    ["refinement", "grant"],
    ["dashboard", "reserve"],
    ["dashboard", "settle"],
    ["scorer", "reserve"],
  ] as const)("%s's user cannot call the ledger's %s", async (user, rpc) => {
    const nc = await connectAs(user);
    await expect(nc.request(topo.ledgerRpc[rpc], new TextEncoder().encode("{}"), { timeout: 2_000 })).rejects.toThrow(/Permissions Violation for Publish/);
  });

  it("no worker can publish jobs of another kind or read another worker's replies", async () => {
    const scorer = await connectAs("scorer");
    expect(await delivered(scorer, topo.jobs.vote)).toBe(false);
    expect((await subscribeRefusal(scorer, "_INBOX.gateway.>"))?.message).toMatch(/Permissions Violation for Subscription/);
    const voter = await connectAs("panel-voter");
    expect(await delivered(voter, topo.jobs.score)).toBe(false);
  });
});
