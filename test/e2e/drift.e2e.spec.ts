import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createDb, migrateToLatest } from "@adrank/db";
import { missingServices, REPO_ROOT } from "../support/paths.ts";
import { startStack, withSearchPath, type Stack } from "../support/stack.ts";

// The drift watch (issue 34) against the running stack and its database: the first run is the
// baseline, an identical second run reports no drift (the sim is deterministic), and a run after
// the provider "changed" the model it reports warns, names the field and exits 3.

const missing = missingServices(["gateway", "ledger", "scorer"]);
const DRIFT = join(REPO_ROOT, "services/gateway/src/admin/drift/main.ts");
const run = promisify(execFile);

interface DriftRun {
  code: number;
  stdout: string;
  stderr: string;
}

describe.skipIf(missing.length > 0)("npm run drift against the running stack", () => {
  let stack: Stack;
  let db: ReturnType<typeof createDb>;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startStack({ voterEnv: false, refinementEnv: false });
    const url = withSearchPath(stack.database.connectionString, stack.database.schema);
    db = createDb({ connectionString: url, max: 1 });
    await migrateToLatest(db);
    const account = await stack.createAccount({ credits: 40 });
    env = { PATH: process.env.PATH ?? "", DATABASE_URL: url, ADRANK_URL: stack.baseUrl, DRIFT_API_KEY: account.key, LOG_LEVEL: "warn" };
  }, 90_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
  }, 30_000);

  async function drift(...args: string[]): Promise<DriftRun> {
    try {
      const { stdout, stderr } = await run(process.execPath, [DRIFT, ...args], { cwd: REPO_ROOT, env, timeout: 90_000 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
    }
  }

  it("stores a baseline, finds no drift on an identical run, and warns with exit 3 when the reported model version changed", async () => {
    const first = await drift();
    expect(first.code, `${first.stdout}\n${first.stderr}\n${stack.output()}`).toBe(0);
    expect(first.stdout).toContain("baseline");

    const second = await drift("--json");
    expect(second.code, second.stderr).toBe(0);
    const report = JSON.parse(second.stdout) as { status: string; comparison: { spearman_rho: number | null } | null };
    expect(report.status).toBe("unchanged");
    expect(JSON.stringify(report)).not.toContain("WARNING");

    // What a provider swapping the snapshot behind a model name looks like in the stored history.
    await sql`update drift_runs set receipt = jsonb_set(receipt, '{generators,0,versions}', '["sim-gen-a-2025-01-01"]') where id = (select id from drift_runs order by created_at desc limit 1)`.execute(db);
    const third = await drift();
    expect(third.code, `${third.stdout}\n${third.stderr}`).toBe(3);
    expect(third.stdout).toMatch(/WARNING/);
    expect(third.stdout).toContain("sim-gen-a-2025-01-01");

    const runs = await sql<{ n: string }>`select count(*) as n from drift_runs`.execute(db);
    expect(Number(runs.rows[0]!.n)).toBe(3);
  }, 240_000);
});
