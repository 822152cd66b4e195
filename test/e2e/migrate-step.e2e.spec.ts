import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { jetstreamManager } from "@nats-io/jetstream";
import { createDb, migrations } from "@adrank/db";
import { connectToNats, type NatsConnection } from "@adrank/messaging";
import { eventually } from "../support/faults.ts";
import { ADMIN_CLI, missingServices, REPO_ROOT, SERVICE_MAINS } from "../support/paths.ts";
import { ServiceProcess } from "../support/service-process.ts";
import { freePort, withSearchPath } from "../support/stack.ts";

/** Every migration this build ships: the messages count them all. */
const MIGRATIONS = Object.keys(migrations).length;

// Migrations run once, in a migrate step of their own (`npm run migrate`, the migrate Job, the
// compose service): a service started on an unmigrated database stops at once with what to do,
// and starts once the migrate step has run. Every other system test gets a migrated schema
// from createTestDatabase.

const missing = missingServices(["gateway", "ledger"]);
if (missing.length > 0) console.warn(`migrate-step.e2e.spec.ts SKIPPED: ${missing.join(", ")} not in this checkout yet (no src/main.ts).`);

const MIGRATE_CLI = join(REPO_ROOT, "packages/db/src/migrate-cli.ts");
const CONNECTION = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const RUN_MIGRATE = 'run "npm run migrate" (or the migrate Job / compose service) first';
/** kysely's migration lock: a schema is dropped under it, as createTestDatabase's destroy() does. */
const KYSELY_MIGRATION_LOCK_ID = "3853314791062309107";

interface Run {
  code: number;
  out: string;
}

/** A command to its end: exit code and everything it printed; never throws on a non-zero exit. */
function runCommand(file: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1) : 0;
      resolve({ code, out: stdout + stderr });
    });
  });
}

/** The messages of a service's fatal log lines (pino JSON, one a line). */
function fatalMessages(p: ServiceProcess): string[] {
  return p
    .output()
    .split("\n")
    .map((line) => line.slice(line.indexOf("| ") + 2))
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((entry) => entry.level >= 60)
    .map((entry) => entry.msg);
}

/** The exit code of a service process that is expected to stop by itself. */
async function exitCode(p: ServiceProcess, timeoutMs = 30_000): Promise<number | null> {
  await eventually(async () => (p.isRunning() ? undefined : true), timeoutMs, `${p.name} to exit\n${p.output()}`);
  return p.child.exitCode;
}

describe.skipIf(missing.length > 0)("the migrate step", () => {
  const schema = `migstep_${randomBytes(5).toString("hex")}`;
  const namespace = `t${randomBytes(5).toString("hex")}`;
  const databaseUrl = withSearchPath(CONNECTION, schema);
  const common = { NATS_URL, DATABASE_URL: databaseUrl, ADRANK_NAMESPACE: namespace, LOG_LEVEL: "info" };
  const processes: ServiceProcess[] = [];
  let nc: NatsConnection;

  const start = async (service: "gateway" | "ledger") => {
    const port = await freePort();
    const listen: Record<string, string> = service === "gateway" ? { PORT: String(port), HOST: "127.0.0.1" } : { HEALTH_PORT: String(port), HEALTH_HOST: "127.0.0.1" };
    const p = new ServiceProcess(`${service}#${processes.length + 1}`, SERVICE_MAINS[service], { ...common, ...listen }, REPO_ROOT);
    processes.push(p);
    return { process: p, baseUrl: `http://127.0.0.1:${port}` };
  };
  const migrateCli = (...args: string[]) => runCommand(process.execPath, [MIGRATE_CLI, ...args], { DATABASE_URL: databaseUrl });

  beforeAll(async () => {
    // A schema of its own with nothing in it: no createTestDatabase, which would migrate it.
    const admin = createDb({ connectionString: CONNECTION, max: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    await admin.destroy();
    nc = await connectToNats({ url: NATS_URL, name: "e2e-migrate-step" });
  });

  afterAll(async () => {
    await Promise.allSettled(processes.map((p) => p.stop()));
    if (nc) {
      const jsm = await jetstreamManager(nc);
      const names: string[] = [];
      for await (const s of jsm.streams.list()) if (s.config.name.includes(`${namespace}_`)) names.push(s.config.name);
      await Promise.allSettled(names.map((n) => jsm.streams.delete(n)));
      await nc.close();
    }
    const cleanup = createDb({ connectionString: CONNECTION, max: 1 });
    await cleanup.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${sql.raw(KYSELY_MIGRATION_LOCK_ID)})`.execute(trx);
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(trx);
    });
    await cleanup.destroy();
  }, 60_000);

  it("a service on an unmigrated schema exits non-zero at start, saying to run the migrate step, and leaves the schema alone", async () => {
    for (const service of ["gateway", "ledger"] as const) {
      const { process: p } = await start(service);
      const code = await exitCode(p);
      const out = p.output();
      expect(code, out).not.toBe(0);
      expect(code, out).not.toBeNull();
      const [fatal, ...more] = fatalMessages(p);
      expect(more, out).toEqual([]);
      expect(fatal, out).toMatch(new RegExp(`^database schema is behind: ${MIGRATIONS} migrations not applied \\(2026_11_22_10_accounts, [^)]*\\)`));
      expect(fatal, out).toContain(`in schema "${schema}"; ${RUN_MIGRATE}`);
      // One log line, not a crash dump.
      expect(out).not.toMatch(/^\S+\|\s+at /m);
      expect(out).not.toMatch(/Unhandled|uncaught/i);
    }

    // The admin CLI, too, refuses instead of migrating.
    const admin = await runCommand(process.execPath, [ADMIN_CLI, "create-account", "--name", "too early"], { ...common, LOG_LEVEL: "warn" });
    expect(admin.code, admin.out).toBe(1);
    expect(admin.out).toContain(`admin: database schema is behind: ${MIGRATIONS} migrations not applied`);
    expect(admin.out).toContain(RUN_MIGRATE);

    // Nobody migrated: the schema is still empty, and the check says so (exit 1).
    const db = createDb({ connectionString: CONNECTION, max: 1 });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = ${schema}`.execute(db);
    await db.destroy();
    expect(rows[0]?.n).toBe(0);
    const check = await migrateCli("--check");
    expect(check.code, check.out).toBe(1);
    expect(check.out).toContain(RUN_MIGRATE);
  });

  it("`npm run migrate` applies every migration once, a second run applies nothing, and then the services start ready", async () => {
    // What a service's init container does: waits for the migrate step, then exits 0.
    const waiter = spawn(process.execPath, [MIGRATE_CLI, "--check", "--wait", "60"], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", DATABASE_URL: databaseUrl }, stdio: ["ignore", "pipe", "pipe"] });
    let waited = "";
    waiter.stdout.on("data", (c: Buffer) => (waited += c.toString("utf8")));
    waiter.stderr.on("data", (c: Buffer) => (waited += c.toString("utf8")));
    const waiterExit = new Promise<number | null>((resolve) => waiter.once("exit", (code) => resolve(code)));
    await eventually(async () => (waited.includes("waiting up to 60 s for the migrate step") ? true : undefined), 20_000, `the waiting check to say it waits (so far: ${waited})`);

    const first = await runCommand("npm", ["run", "--silent", "migrate"], { DATABASE_URL: databaseUrl });
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain("applied: 2026_11_22_10_accounts, 2026_11_23_01_ledger_projection, 2026_11_23_20_dashboard_users, 2026_11_24_10_ledger_mirror_identity, 2026_11_24_20_console_limits");

    const second = await migrateCli();
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain("database schema is up to date");
    expect(second.out).not.toContain("applied:");

    expect(await waiterExit, waited).toBe(0);
    expect(waited).toContain(`database schema is current: ${MIGRATIONS} migrations applied in schema "${schema}"`);
    const check = await migrateCli("--check");
    expect(check.code, check.out).toBe(0);

    const ledger = await start("ledger");
    const gateway = await start("gateway");
    for (const s of [ledger, gateway]) {
      await eventually(
        async () => {
          if (!s.process.isRunning()) throw new Error(`${s.process.name} exited\n${s.process.output()}`);
          const res = await fetch(`${s.baseUrl}/readyz`).catch(() => null);
          return res?.ok ? true : undefined;
        },
        30_000,
        `${s.process.name} to answer /readyz with 200\n${s.process.output()}`,
      );
      expect(s.process.output()).not.toContain("database migrated");
    }
  });
});
