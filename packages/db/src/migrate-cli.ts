// The one place that migrates the database: `npm run migrate` (node packages/db/src/migrate-cli.ts),
// the Dockerfile's `migrate` target, the compose `migrate` service and the Kubernetes Job
// `migrate`. Services never migrate: they check at start (assertSchemaCurrent) and stop.
//
//   migrate-cli.ts                     applies the pending migrations (kysely holds a Postgres
//                                      advisory lock: concurrent runs apply each one once)
//   migrate-cli.ts --check             prints the schema's status; exit 0 when current, else 1
//   migrate-cli.ts --check --wait 300  waits up to 300 s for another process (the migrate Job)
//                                      to bring the schema up to date: a service's init container
//   migrate-cli.ts --login-roles       also creates (or updates) each service's login role from
//                                      GATEWAY_DATABASE_URL, LEDGER_DATABASE_URL, … (compose)
//
// DATABASE_URL selects the database (and, with `options=-c search_path=…`, the schema); its user
// owns the tables. After every run (even one that applies nothing) the services' group roles get
// exactly their rights of packages/db/src/service-roles.ts, so a new table is granted before a
// release that uses it starts. ADRANK_DB_ROLE_PREFIX (default adrank) names the group roles.
import { parseArgs } from "node:util";
import { createDb } from "./connect.ts";
import { grantServiceRoles } from "./grant-service-roles.ts";
import { ensureLoginRole, loginRolesFromEnv, type LoginRole } from "./login-roles.ts";
import { migrateToLatest } from "./migrate.ts";
import { describeSchemaStatus, isSchemaCurrent, schemaStatus, type SchemaStatus } from "./schema-status.ts";
import { DEFAULT_ROLE_PREFIX, groupRoleName } from "./service-roles.ts";

const USAGE = "usage: migrate-cli.ts [--login-roles] | --check [--wait SECONDS]";
const POLL_MS = 2_000;

let flags: { check: boolean; wait: number | undefined; loginRoles: boolean };
try {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false }, wait: { type: "string" }, "login-roles": { type: "boolean", default: false }, help: { type: "boolean", default: false } }, strict: true });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const wait = values.wait === undefined ? undefined : Number(values.wait);
  if (wait !== undefined && (!Number.isFinite(wait) || wait < 0)) throw new Error(`--wait wants a number of seconds, not ${JSON.stringify(values.wait)}`);
  if (wait !== undefined && !values.check) throw new Error("--wait goes with --check");
  if (values["login-roles"] && values.check) throw new Error("--login-roles goes with a migration run, not with --check");
  flags = { check: values.check, wait, loginRoles: values["login-roles"] };
} catch (err) {
  console.error(`migrate: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}

const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const db = createDb({ connectionString, max: 1, applicationName: flags.check ? "adrank-migrate-check" : "adrank-migrate", queryTimeoutMs: flags.check ? 5_000 : 0 });
try {
  process.exitCode = flags.check ? await check(flags.wait ?? 0) : await migrate();
} catch (err) {
  console.error(oneLine(err));
  process.exitCode = 1;
} finally {
  await db.destroy();
}

async function migrate(): Promise<number> {
  // A bad role setting stops the run before anything changes.
  const prefix = process.env.ADRANK_DB_ROLE_PREFIX || DEFAULT_ROLE_PREFIX;
  groupRoleName(prefix, "gateway"); // throws, naming the prefix, when it cannot name a role
  const logins = flags.loginRoles ? loginRolesFromEnv(process.env, connectionString) : [];
  if (flags.loginRoles && logins.length === 0) {
    console.error("migrate: --login-roles found none of GATEWAY_DATABASE_URL, LEDGER_DATABASE_URL, DASHBOARD_DATABASE_URL, ADMIN_DATABASE_URL");
    return 1;
  }
  // kysely would refuse too ("corrupted migrations"); this says why and what to do.
  const before = await schemaStatus(db);
  if (before.unknown.length > 0) {
    console.error(describeSchemaStatus(before));
    return 1;
  }
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database schema is up to date");
  return grantRoles(prefix, logins);
}

/** The services' group roles get their rights; with --login-roles, their login roles are made too. */
async function grantRoles(prefix: string, logins: LoginRole[]): Promise<number> {
  const report = await grantServiceRoles(db, { prefix });
  console.log(`service roles granted in schema "${report.schema}": ${report.roles.join(", ")}${report.created.length ? ` (created ${report.created.join(", ")})` : ""}`);
  // A table no service may use is a migration whose rights were forgotten: say so loudly.
  if (report.unlisted.length) console.error(`migrate: no service role may use ${report.unlisted.join(", ")}: add it to packages/db/src/service-roles.ts`);
  for (const login of logins) {
    const done = await ensureLoginRole(db, login, prefix);
    console.log(`login role ${login.user} ${done}: member of ${groupRoleName(prefix, login.service)}`);
  }
  return 0;
}

/** Prints the status (again whenever it changes while waiting); 0 once current, else 1. */
async function check(waitSeconds: number): Promise<number> {
  const until = Date.now() + waitSeconds * 1_000;
  let said = "";
  const say = (line: string, toErr: boolean) => {
    if (line !== said) (toErr ? console.error : console.log)(line);
    said = line;
  };
  for (;;) {
    const last = Date.now() >= until;
    let status: SchemaStatus | null = null;
    try {
      status = await schemaStatus(db);
    } catch (err) {
      // Postgres may not be up yet while waiting: say so, and try again.
      if (last) throw err;
      say(`cannot read the schema's status yet (waiting up to ${waitSeconds} s): ${oneLine(err)}`, true);
    }
    if (status) {
      const line = describeSchemaStatus(status);
      if (isSchemaCurrent(status)) {
        say(line, false);
        return 0;
      }
      // A newer build migrated the database: waiting will not change that.
      if (last || status.unknown.length > 0) {
        say(line, true);
        return 1;
      }
      say(`${line} (waiting up to ${waitSeconds} s for the migrate step)`, true);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function oneLine(err: unknown): string {
  return err instanceof Error ? `${err.message}${err.cause ? `: ${String(err.cause)}` : ""}` : String(err);
}
