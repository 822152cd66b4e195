import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { jetstreamManager } from "@nats-io/jetstream";
import { issueKey } from "@adrank/api-keys";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { connectToNats, topology, type NatsConnection, type NatsCredentials, type Topology } from "@adrank/messaging";
import { ADMIN_CLI, REPO_ROOT, SERVICE_MAINS } from "./paths.ts";
import { ServiceProcess } from "./service-process.ts";

const run = promisify(execFile);

export type ReplicaService = "gateway" | "ledger" | "scorer" | "panel-voter" | "refinement" | "dashboard";

export interface StackOptions {
  /**
   * A database (schema) of the test's own that several stacks share, as deployments with
   * different ADRANK_NAMESPACEs may; the stack then leaves it in place when it stops.
   */
  database?: TestDatabase;
  /**
   * Rewrites the services' DATABASE_URL (e.g. through a proxy the test can cut, or to each
   * service's own database role); the harness connects directly. `service` is the process
   * that gets it: a service, or "admin" for the admin CLI.
   */
  servicesDatabaseUrl?: (url: string, service: ReplicaService | "admin") => string;
  /** A NATS of the test's own (e.g. one it restarts); the shared one by default. */
  natsUrl?: string;
  /**
   * The harness's own NATS user and TLS files, for a `natsUrl` that requires them (it deletes
   * the namespace's streams at the end). Services and the admin CLI take theirs from `env` and
   * their per-service environment.
   */
  natsCredentials?: NatsCredentials;
  /** ADRANK_NAMESPACE of the services (e.g. one a NATS configuration was written for); a random one by default. */
  namespace?: string;
  /** Environment every service gets (e.g. OTEL_* to export traces); per-service options win. */
  env?: Record<string, string>;
  /** Extra environment of the gateway (e.g. RANK_TIMEOUT_MS). */
  gatewayEnv?: Record<string, string>;
  /** Extra environment of the scorer (e.g. SIM_LATENCY_MS); `false` starts no scorer. */
  scorerEnv?: Record<string, string> | false;
  ledgerEnv?: Record<string, string>;
  /** Extra environment of the panel-voter; `false` starts none. */
  voterEnv?: Record<string, string> | false;
  /** Extra environment of the refinement service; `false` starts none. */
  refinementEnv?: Record<string, string> | false;
  /** Environment of the account console; it starts only when this is given. */
  dashboardEnv?: Record<string, string>;
  logLevel?: string;
}

export interface Account {
  accountId: string;
  keyId: string;
  key: string;
}

export interface Stack {
  baseUrl: string;
  /** The account console's address; empty unless `dashboardEnv` was given. */
  dashboardUrl: string;
  namespace: string;
  topo: Topology;
  database: TestDatabase;
  nc: NatsConnection;
  ledger: LedgerClient;
  processes: ServiceProcess[];
  /** Runs the admin CLI against this stack; rejects with its stderr on a non-zero exit. */
  admin(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** An account with one key and the given credits, made through the admin CLI. */
  createAccount(opts?: { credits?: number; name?: string }): Promise<Account>;
  /** The same straight through Postgres and the ledger client: for the many keys of a benchmark. */
  createAccountDirect(opts?: { credits?: number }): Promise<Account>;
  /**
   * Another process of a service with the stack's environment (and that service's options):
   * a second replica, or a restart of one that was killed. Resolves once it answers /readyz;
   * for a gateway or a dashboard (the console), `baseUrl` is its address.
   */
  startReplica(service: ReplicaService, env?: Record<string, string>): Promise<{ process: ServiceProcess; baseUrl: string }>;
  /** Everything the services printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

/**
 * The real services as processes: ledger, scorer (sim model) and gateway, on a random NATS
 * namespace and a private Postgres schema, ready when the gateway's /readyz says so.
 * `stop()` kills them, deletes the namespace's streams and drops the schema.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const namespace = options.namespace ?? `t${randomBytes(5).toString("hex")}`;
  const topo = topology(namespace);
  const database = options.database ?? (await createTestDatabase("e2e"));
  const databaseUrl = withSearchPath(database.connectionString, database.schema);
  const natsUrl = options.natsUrl ?? NATS_URL;
  const nc = await connectToNats({ url: natsUrl, name: "e2e-harness", credentials: options.natsCredentials ?? {} });
  const common = { NATS_URL: natsUrl, ADRANK_NAMESPACE: namespace, LOG_LEVEL: options.logLevel ?? "info", ...options.env };
  /** The environment every process shares, with the DATABASE_URL of this one (options.env may still replace it). */
  const envOf = (service: ReplicaService | "admin") => ({ DATABASE_URL: options.servicesDatabaseUrl?.(databaseUrl, service) ?? databaseUrl, ...common });
  const processes: ServiceProcess[] = [];
  const stack: Stack = {
    baseUrl: "",
    dashboardUrl: "",
    namespace,
    topo,
    database,
    nc,
    ledger: createLedgerClient(nc, topo, { timeoutMs: 5_000 }),
    processes,
    async admin(...args) {
      try {
        return await run(process.execPath, [ADMIN_CLI, ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", ...envOf("admin"), LOG_LEVEL: "warn" }, timeout: 30_000 });
      } catch (err) {
        const e = err as { stderr?: string; message: string };
        throw new Error(`admin ${args[0]} failed: ${e.stderr?.trim() || e.message}`, { cause: err });
      }
    },
    async createAccount({ credits = 1_000, name = "e2e account" } = {}) {
      const accountId = (await stack.admin("create-account", "--name", name)).stdout.trim();
      const created = (await stack.admin("create-key", "--account", accountId, "--name", "e2e")).stdout;
      const keyId = /^id: (\S+)$/m.exec(created)?.[1];
      const key = /^key: (agk_live_\S+)$/m.exec(created)?.[1];
      if (!keyId || !key) throw new Error(`create-key printed no key:\n${created}`);
      if (credits > 0) await stack.admin("grant", "--account", accountId, "--credits", String(credits));
      return { accountId, keyId, key };
    },
    async createAccountDirect({ credits = 1_000 } = {}) {
      const suffix = randomBytes(10).toString("hex");
      const accountId = `acct_${suffix}`;
      const keyId = `key_${suffix}`;
      const issued = issueKey(randomBytes(41));
      await database.db.insertInto("accounts").values({ id: accountId, name: "direct" }).execute();
      await database.db.insertInto("api_keys").values({ id: keyId, account_id: accountId, name: "direct", lookup: issued.lookup, hash: issued.hash, last_four: issued.lastFour }).execute();
      if (credits > 0) {
        const granted = await stack.ledger.grant({ accountId, grantId: randomUUID(), credits });
        if (!granted.ok) throw new Error(`grant refused: ${JSON.stringify(granted.rejection)}`);
      }
      return { accountId, keyId, key: issued.raw };
    },
    async startReplica(service, env = {}) {
      const own = { gateway: options.gatewayEnv, ledger: options.ledgerEnv, scorer: options.scorerEnv || {}, "panel-voter": options.voterEnv || {}, refinement: options.refinementEnv || {}, dashboard: options.dashboardEnv }[service];
      const port = await freePort();
      const listen: Record<string, string> =
        service === "gateway"
          ? { PORT: String(port), HOST: "127.0.0.1" }
          : service === "dashboard"
            ? { DASHBOARD_PORT: String(port), DASHBOARD_HOST: "127.0.0.1", GATEWAY_URL: stack.baseUrl }
            : { HEALTH_PORT: String(port), HEALTH_HOST: "127.0.0.1" };
      const replica = new ServiceProcess(`${service}#${processes.filter((p) => p.name.startsWith(service)).length + 1}`, SERVICE_MAINS[service], { ...envOf(service), ...own, ...listen, ...env }, REPO_ROOT);
      processes.push(replica);
      const baseUrl = `http://127.0.0.1:${port}`;
      await waitForReady(baseUrl, stack, 30_000, [replica]);
      return { process: replica, baseUrl };
    },
    output: () => processes.map((p) => p.output()).join("\n"),
    async stop() {
      await Promise.allSettled(processes.map((p) => p.stop()));
      await deleteNamespaceStreams(nc, namespace).catch(() => {});
      await nc.close();
      if (!options.database) await database.destroy();
    },
  };

  try {
    const ledger = new ServiceProcess("ledger", SERVICE_MAINS.ledger, { ...envOf("ledger"), ...options.ledgerEnv }, REPO_ROOT);
    processes.push(ledger);
    if (options.scorerEnv !== false) processes.push(new ServiceProcess("scorer", SERVICE_MAINS.scorer, { ...envOf("scorer"), ...options.scorerEnv }, REPO_ROOT));
    const voter = options.voterEnv !== false && existsSync(SERVICE_MAINS["panel-voter"]);
    if (voter) processes.push(new ServiceProcess("panel-voter", SERVICE_MAINS["panel-voter"], { ...envOf("panel-voter"), ...options.voterEnv }, REPO_ROOT));
    const refinement = options.refinementEnv !== false && existsSync(SERVICE_MAINS.refinement);
    if (refinement) processes.push(new ServiceProcess("refinement", SERVICE_MAINS.refinement, { ...envOf("refinement"), ...options.refinementEnv }, REPO_ROOT));
    const port = await freePort();
    processes.push(new ServiceProcess("gateway", SERVICE_MAINS.gateway, { ...envOf("gateway"), PORT: String(port), HOST: "127.0.0.1", ...options.gatewayEnv }, REPO_ROOT));
    stack.baseUrl = `http://127.0.0.1:${port}`;
    if (options.dashboardEnv) {
      const dashboardPort = await freePort();
      processes.push(new ServiceProcess("dashboard", SERVICE_MAINS.dashboard, { ...envOf("dashboard"), DASHBOARD_PORT: String(dashboardPort), DASHBOARD_HOST: "127.0.0.1", GATEWAY_URL: stack.baseUrl, ...options.dashboardEnv }, REPO_ROOT));
      stack.dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
    }
    await waitForReady(stack.baseUrl, stack, 30_000);
    if (options.dashboardEnv) await waitForReady(stack.dashboardUrl, stack, 30_000);
    if (options.scorerEnv !== false) await waitForConsumer(stack, "scorer", 30_000);
    if (voter) await waitForConsumer(stack, "panel-voter", 30_000);
    if (refinement) await waitForConsumer(stack, "refinement", 30_000);
    return stack;
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

/** A port nobody listens on right now (the kernel picks it), for the gateway to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitForReady(baseUrl: string, stack: Stack, timeoutMs: number, watched: ServiceProcess[] = stack.processes): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < until) {
    // Only the processes being started: a test may have killed others on purpose.
    const dead = watched.find((p) => !p.isRunning());
    if (dead) throw new Error(`${dead.name} exited during start-up\n${stack.output()}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      last = `${res.status} ${await res.text()}`;
      if (res.ok) return;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${baseUrl} was not ready within ${timeoutMs} ms (last: ${last})\n${stack.output()}`);
}

/** A worker service is ready once its durable consumer exists on the JOBS stream. */
async function waitForConsumer(stack: Stack, service: string, timeoutMs: number): Promise<void> {
  const jsm = await jetstreamManager(stack.nc);
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const dead = stack.processes.find((p) => !p.isRunning());
    if (dead) throw new Error(`${dead.name} exited during start-up\n${stack.output()}`);
    const found = await jsm.consumers.info(stack.topo.streams.jobs.name, stack.topo.consumer(service)).catch(() => null);
    if (found) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service} did not start consuming jobs within ${timeoutMs} ms\n${stack.output()}`);
}

/** Streams (jobs, ledger, the image bucket's) of a test namespace: removed so runs leave nothing behind. */
async function deleteNamespaceStreams(nc: NatsConnection, namespace: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const names: string[] = [];
  for await (const s of jsm.streams.list()) if (s.config.name.includes(`${namespace}_`)) names.push(s.config.name);
  await Promise.allSettled(names.map((n) => jsm.streams.delete(n)));
}

/** Service processes reach the private schema through the connection string. */
export function withSearchPath(connectionString: string, schema: string): string {
  // encodeURIComponent, not URLSearchParams: pg does not read `+` as a space.
  return `${connectionString}${connectionString.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}
