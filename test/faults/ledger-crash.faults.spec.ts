import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rank, type HttpResult } from "../support/http.ts";
import { accountInStream, billedAnswer, billingDiscrepancies, deadServices, projectionAgrees, settledBalance } from "../support/faults.ts";
import { creative } from "../support/png.ts";
import type { ServiceProcess } from "../support/service-process.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Two ledger replicas serve a burst of concurrent rank requests from several accounts. One is
// killed (SIGKILL) mid-burst and started again; once the restarted one is up, the other
// original is killed too, so the rest of the burst is decided by the restarted replica alone,
// from state it rebuilt from the stream. No event may be lost or applied twice: per account,
// what the answers say they used equals what the stream charged, the balance the ledger
// reports, and the Postgres projection, which catches up and holds every event once.

const CREDITS = 200;
const ACCOUNTS = 8;
const REQUESTS = 96;
// How many requests at the end of the burst the restarted replica serves alone, at least.
const ALONE_AT_END = 16;
const audience = { name: "Weekend gardeners", demographics: {} };

describe("a ledger replica dies during a burst", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      logLevel: "warn",
      refinementEnv: false,
      voterEnv: false,
      // Stranded reservations (a reply lost with the replica) expire quickly here; 5 min in production.
      ledgerEnv: { LEDGER_RESERVATION_TTL_MS: "4000", LEDGER_SWEEP_INTERVAL_MS: "500" },
      gatewayEnv: { LEDGER_TIMEOUT_MS: "2000" },
      scorerEnv: { SIM_LATENCY_MS: "50" },
    });
    await stack.startReplica("ledger");
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it("loses no event and applies none twice; answers, balances, stream and projection agree", async () => {
    const accounts: Account[] = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await stack.createAccountDirect({ credits: CREDITS }));
    const [original1, original2] = stack.processes.filter((p) => p.name.startsWith("ledger"));
    const killed: ServiceProcess[] = [];
    const results: Array<{ account: Account; res: HttpResult; phase: string }> = [];
    let phase = "two replicas";
    let restarted: Promise<{ process: ServiceProcess }> | null = null;
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const i = next++;
        // The last requests of the burst belong to the restarted replica alone: when the burst
        // outruns its start (a slow machine), they wait for it rather than ending the burst early.
        if (i >= REQUESTS - ALONE_AT_END && restarted) await restarted;
        const account = accounts[i % accounts.length]!;
        // 1 to 3 assets, some with copy (2 evaluations): several reservation sizes per account,
        // at most 48 evaluations per key, below its 60 a minute.
        const assets = Array.from({ length: 1 + (Math.floor(i / ACCOUNTS) % 3) }, (_, k) => ({ url: creative((i + k) % 30), ...(k === 1 ? { copy_context: { adBody: `Offer ${i}` } } : {}) }));
        const res = await rank(stack.baseUrl, account.key, { assets, audience, refine_close_pairs: false });
        results.push({ account, res, phase });
        if (results.length === 20) {
          phase = "one replica, another starting";
          original1!.child.kill("SIGKILL");
          killed.push(original1!);
          restarted = stack.startReplica("ledger").then((r) => {
            phase = "restarted replica alone";
            original2!.child.kill("SIGKILL");
            killed.push(original2!);
            return r;
          });
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(restarted, "the burst was long enough to kill a replica").not.toBeNull();
    const { process: replacement } = await restarted!;
    expect(killed).toHaveLength(2);
    expect(replacement.isRunning()).toBe(true);
    expect(deadServices(stack, killed)).toEqual([]);

    // Every request got a clear answer: ranked, or a JSON error that charged nothing.
    const byPhase: Record<string, Record<number, number>> = {};
    for (const { res, phase: p } of results) {
      (byPhase[p] ??= {})[res.status] = (byPhase[p][res.status] ?? 0) + 1;
      expect([200, 500, 503], JSON.stringify(res.body)).toContain(res.status);
      if (res.status !== 200) expect(typeof res.body.error).toBe("string");
    }
    // The restarted replica, alone, served the end of the burst from the state it rebuilt.
    expect(byPhase["restarted replica alone"]?.[200] ?? 0, JSON.stringify(byPhase)).toBeGreaterThan(0);

    let events = 0;
    let reservations = 0;
    for (const account of accounts) {
      const answers = results.filter((r) => r.account === account).map((r) => billedAnswer(r.res));
      const balance = await settledBalance(stack, account.accountId);
      const stream = await accountInStream(stack, account.accountId);
      expect(billingDiscrepancies(stream, balance, answers), account.accountId).toEqual([]);
      expect(stream.granted).toBe(CREDITS);
      // Every request that reached the ledger left one reservation; none appeared from nowhere.
      const ids = new Set(answers.map((a) => a.requestId));
      expect([...stream.reservations.keys()].filter((id) => !ids.has(id))).toEqual([]);
      expect(answers.filter((a) => a.status === 200).every((a) => stream.reservations.has(a.requestId))).toBe(true);
      await projectionAgrees(stack, account.accountId, stream, balance);
      events += stream.events;
      reservations += stream.reservations.size;
    }
    const errors = [...new Set(results.filter((r) => r.res.status !== 200).map((r) => `${r.res.status} ${r.res.body.error}`))];
    console.log(`ledger replicas killed mid-burst (one, then the other once the restarted one was up): ${results.length} requests, by phase and status ${JSON.stringify(byPhase)}${errors.length ? ` (errors: ${errors.join(" | ")})` : ""}; ${reservations} reservations, ${events} events; answers, balances, stream and projection agree for ${ACCOUNTS} accounts`);
  }, 120_000);
});
