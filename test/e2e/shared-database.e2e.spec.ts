import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstreamManager } from "@nats-io/jetstream";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { eventually } from "../support/faults.ts";
import { rank } from "../support/http.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { freePort, startStack, withSearchPath, type Account, type Stack } from "../support/stack.ts";

// Two deployments (two ADRANK_NAMESPACEs) on one NATS and ONE database schema, as the README
// allows. Before the mirror knew its stream, the second namespace's events overlapped the
// first's stream sequences and were acknowledged and dropped: its console showed 0 credits
// and reconcile printed "BEHIND" yet exited 0.

const run = promisify(execFile);
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const audience = { name: "Trail runners" };

interface Cli {
  code: number;
  out: string;
}

describe("two namespaces on one database", () => {
  let database: TestDatabase;
  let a: Stack;
  let b: Stack;
  let ledgerHealthA: string;
  const accounts = new Map<Stack, Account>();

  /** Runs a ledger admin command against one stack's namespace; never throws on a non-zero exit. */
  async function cli(stack: Stack, script: string, ...args: string[]): Promise<Cli> {
    const env = { PATH: process.env.PATH ?? "", NATS_URL, DATABASE_URL: withSearchPath(database.connectionString, database.schema), ADRANK_NAMESPACE: stack.namespace };
    try {
      const { stdout, stderr } = await run(process.execPath, [join(REPO_ROOT, "services/ledger/src/admin", script), ...args], { cwd: REPO_ROOT, env, timeout: 30_000 });
      return { code: 0, out: stdout + stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === "number" ? e.code : -1, out: (e.stdout ?? "") + (e.stderr ?? "") };
    }
  }
  const balanceRow = (stack: Stack, accountId: string) =>
    database.db.selectFrom("account_balances").select(["granted", "used", "reserved", "available"]).where("stream", "=", stack.topo.streams.ledger.name).where("account_id", "=", accountId).executeTakeFirst();

  beforeAll(async () => {
    database = await createTestDatabase("shared");
    const healthPort = await freePort();
    ledgerHealthA = `http://127.0.0.1:${healthPort}`;
    const lean = { database, voterEnv: false, refinementEnv: false } as const;
    a = await startStack({ ...lean, ledgerEnv: { HEALTH_PORT: String(healthPort), HEALTH_HOST: "127.0.0.1" } });
    b = await startStack({ ...lean, dashboardEnv: { DASHBOARD_SIGNUP_CREDITS: "100" } });
    for (const s of [a, b]) accounts.set(s, await s.createAccount({ credits: 40 }));
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await database?.destroy();
  }, 60_000);

  it("projects both namespaces in full, their sequence numbers overlapping, and reconciles each (exit 0)", async () => {
    for (const s of [a, b]) {
      const res = await rank(s.baseUrl, accounts.get(s)!.key, { assets: [{ url: creative(2) }], audience, refine_close_pairs: false });
      expect(res.status, s.output()).toBe(200);
      expect(res.body.summary).toMatchObject({ credits_used: 1, credits_remaining: 39 });
    }
    for (const s of [a, b]) {
      const accountId = accounts.get(s)!.accountId;
      const row = await eventually(async () => {
        const r = await balanceRow(s, accountId);
        return r && r.used === 1 ? r : undefined;
      }, 10_000, `the ${s.namespace} mirror to show the settled rank`);
      expect(row).toEqual({ granted: 40, used: 1, reserved: 0, available: 39 });
    }
    // The very overlap that used to be dropped: both streams hold sequences 1..3.
    const seqs = await database.db.selectFrom("ledger_events").select(["stream", "stream_seq"]).orderBy("stream").orderBy("stream_seq").execute();
    for (const s of [a, b]) expect(seqs.filter((r) => r.stream === s.topo.streams.ledger.name).map((r) => r.stream_seq)).toEqual([1, 2, 3]);

    for (const s of [a, b]) {
      const r = await cli(s, "reconcile-cli.ts");
      expect(r.out).toContain("1 accounts checked, 0 differences, 0 behind");
      expect(r.code, r.out).toBe(0);
    }
  });

  it("shows a new console account of the second namespace its sign-up credits", async () => {
    const signup = await fetch(`${b.dashboardUrl}/console/api/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "second-namespace@example.com", password: "correct horse battery" }),
    });
    expect(signup.status, b.output()).toBe(201);
    const cookie = signup.headers.get("set-cookie")!.split(";")[0]!;
    const usage = await eventually(async () => {
      const body = (await (await fetch(`${b.dashboardUrl}/console/api/usage`, { headers: { cookie } })).json()) as { balance: { available: number } };
      return body.balance.available > 0 ? body : undefined;
    }, 10_000, "the console to show the sign-up credits");
    expect(usage.balance).toEqual({ granted: 100, used: 0, reserved: 0, available: 100 });
  });

  it("refuses a recreated stream loudly in one namespace, leaves the other alone, and the operator re-seeds it", async () => {
    const accountA = accounts.get(a)!;
    const before = await database.db.selectFrom("ledger_events").selectAll().where("stream", "=", a.topo.streams.ledger.name).orderBy("stream_seq").execute();
    // NATS lost namespace A's data: the stream is gone and comes back empty.
    const jsm = await jetstreamManager(a.nc);
    await jsm.streams.delete(a.topo.streams.ledger.name);
    await jsm.streams.add({ ...a.topo.streams.ledger, num_replicas: 1 });
    const recreatedAt = performance.now();

    // Between the delete and the add the ledger may see no stream at all ("does not exist"),
    // a true but passing state: wait for its verdict on the recreated stream.
    const notReady = await eventually(async () => {
      const res = await fetch(`${ledgerHealthA}/readyz`);
      const text = res.status === 503 ? await res.text() : undefined;
      return text?.includes("does not exist on the NATS servers") ? undefined : text;
    }, 10_000, "the ledger's readiness to turn red");
    const refusedAfterMs = performance.now() - recreatedAt;
    expect(notReady).toMatch(/LEDGER stream ".*_LEDGER" was created at .*the stream was recreated or reset\. Projection and billing are paused/);

    // A paying request is refused with a sentence, and charges nothing anywhere.
    const refused = await rank(a.baseUrl, accountA.key, { assets: [{ url: creative(3) }], audience });
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatch(/ledger is unavailable.*nothing was charged/);
    expect((await jsm.streams.info(a.topo.streams.ledger.name)).state.messages).toBe(0);
    expect(await database.db.selectFrom("ledger_events").selectAll().where("stream", "=", a.topo.streams.ledger.name).orderBy("stream_seq").execute()).toEqual(before);

    const reconciled = await cli(a, "reconcile-cli.ts");
    expect(reconciled.code, reconciled.out).toBe(1);
    expect(reconciled.out).toMatch(/^HISTORY The LEDGER stream .* was recreated or reset/m);
    const status = await cli(a, "mirror-cli.ts", "status");
    expect(status.code).toBe(1);
    expect(status.out).toMatch(/The stream is empty: `reseed` writes the mirror's events back into it/);

    // Namespace B never noticed.
    const fine = await rank(b.baseUrl, accounts.get(b)!.key, { assets: [{ url: creative(4) }], audience, refine_close_pairs: false });
    expect(fine.status).toBe(200);
    expect((await cli(b, "reconcile-cli.ts")).code).toBe(0);

    const reseedStarted = performance.now();
    const reseeded = await cli(a, "mirror-cli.ts", "reseed");
    expect(reseeded.out).toMatch(/stream re-seeded: 0 events kept, 3 appended from the mirror/);
    expect(reseeded.code, reseeded.out).toBe(0);
    await eventually(async () => ((await fetch(`${ledgerHealthA}/readyz`)).status === 200 ? true : undefined), 10_000, "the ledger to be ready again");
    console.log(
      `recreated LEDGER stream: readiness 503 naming the cause ${Math.round(refusedAfterMs)} ms after the recreation; rank -> 500, nothing charged; ${before.length} mirror rows unchanged; reconcile exit ${reconciled.code}; other namespace 200 and reconcile exit 0; reseed put ${before.length} events back (exit ${reseeded.code}) and the ledger was ready ${Math.round(performance.now() - reseedStarted)} ms after the command started`,
    );
    const again = await rank(a.baseUrl, accountA.key, { assets: [{ url: creative(3) }], audience, refine_close_pairs: false });
    expect(again.status, a.output()).toBe(200);
    expect(again.body.summary).toMatchObject({ credits_used: 1, credits_remaining: 38 });
    await eventually(async () => {
      const r = await cli(a, "reconcile-cli.ts");
      return r.code === 0 ? r : undefined;
    }, 10_000, "namespace A to reconcile after the re-seed");
  });
});
