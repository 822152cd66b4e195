import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstreamManager } from "@nats-io/jetstream";
import { call, rank, type HttpResult } from "../support/http.ts";
import { accountInStream, billedAnswer, billingDiscrepancies, deadServices, eventually, pause, projectionAgrees, settledBalance, startTcpProxy } from "../support/faults.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// PostgreSQL goes away for a few seconds: the services reach it through a proxy this test
// controls (the shared server keeps running). Stopped: every connection is dropped and new
// ones are refused. Unresponsive: connections stay open but nothing comes back (a partition,
// a hung server). Either way readiness goes red, a request that needs the database fails
// with a clear JSON 5xx within the request's time limit (RANK_TIMEOUT_MS is 8 s here, 120 s
// in production) and costs nothing, and everything works again once the database is back.

const RANK_TIMEOUT_MS = 8_000;
const audience = { name: "Home bakers", demographics: {} };

describe("PostgreSQL is unreachable for a few seconds", () => {
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let stack: Stack;

  beforeAll(async () => {
    proxy = await startTcpProxy(5432);
    stack = await startStack({
      logLevel: "warn",
      refinementEnv: false,
      voterEnv: false,
      servicesDatabaseUrl: (url) => url.replace("127.0.0.1:5432", `127.0.0.1:${proxy.port}`),
      gatewayEnv: { RANK_TIMEOUT_MS: String(RANK_TIMEOUT_MS) },
      // Long enough that a request is still being scored when the database goes.
      scorerEnv: { SIM_LATENCY_MS: "1000" },
    });
  }, 120_000);
  afterAll(async () => {
    proxy?.restore();
    // A service that died during the outage is a finding: show what it said last.
    for (const p of stack?.processes.filter((p) => !p.isRunning()) ?? []) console.error(`${p.name} exited:\n${p.output().split("\n").slice(-20).join("\n")}`);
    await stack?.stop();
    await proxy?.close();
  }, 30_000);

  const ready = async () => (await call(stack.baseUrl, "GET", "/readyz")).status;
  const clearFailure = (res: HttpResult) => {
    expect([500, 503], JSON.stringify(res.body)).toContain(res.status);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.error).toMatch(/database/i);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNRE|Connection terminated|timeout exceeded|at \w+ \(|\.ts:\d+/);
    expect(res.ms).toBeLessThan(RANK_TIMEOUT_MS + 1_000);
  };
  const audit = async (account: Account, answers: HttpResult[]) => {
    const balance = await settledBalance(stack, account.accountId);
    const stream = await accountInStream(stack, account.accountId);
    expect(billingDiscrepancies(stream, balance, answers.map(billedAnswer)), account.accountId).toEqual([]);
    await projectionAgrees(stack, account.accountId, stream, balance);
    return { balance, stream };
  };

  it("stopped: readiness goes red, requests fail with a clear 5xx and no charge, in-flight work completes, and it recovers", async () => {
    const warm = await stack.createAccountDirect({ credits: 10 });
    const saved = await call(stack.baseUrl, "POST", "/api/v1/audiences", { key: warm.key, json: { name: "Sourdough starters" } });
    expect(saved.status).toBe(201);
    const warmUp = await rank(stack.baseUrl, warm.key, { assets: [{ url: creative(1) }], audience_id: saved.body.id, refine_close_pairs: false });
    expect(warmUp.status).toBe(200);
    // A key the gateway has never seen: its look-up needs the database.
    const fresh = await stack.createAccountDirect({ credits: 10 });

    // A request being scored when the database goes: it needs no database any more.
    const inFlight = rank(stack.baseUrl, warm.key, { assets: [{ url: creative(2) }], audience, refine_close_pairs: false });
    const jsm = await jetstreamManager(stack.nc);
    await eventually(async () => ((await jsm.consumers.info(stack.topo.streams.jobs.name, stack.topo.consumer("scorer"))).num_ack_pending > 0 ? true : undefined), 10_000, "the job reaching the scorer");
    const cutAt = Date.now();
    proxy.cut();

    const notReady = await eventually(async () => {
      const res = await call(stack.baseUrl, "GET", "/readyz");
      return res.status === 503 ? res : undefined;
    }, 10_000, "readiness to go red");
    expect(notReady.body.failed).toContain("postgres");
    const redAfter = Date.now() - cutAt;

    const refused = await rank(stack.baseUrl, fresh.key, { assets: [{ url: creative(3) }], audience, refine_close_pairs: false });
    clearFailure(refused);
    expect(refused.body.error).toMatch(/nothing was charged/);
    // A saved audience lives in the database too.
    const savedRefused = await rank(stack.baseUrl, warm.key, { assets: [{ url: creative(4) }], audience_id: saved.body.id, refine_close_pairs: false });
    clearFailure(savedRefused);
    // A known key with an inline audience may be served from the gateway's key cache (5 s):
    // then it is an ordinary, correctly billed rank; otherwise a clear failure like the others.
    const cached = await rank(stack.baseUrl, warm.key, { assets: [{ url: creative(5) }], audience, refine_close_pairs: false });
    if (cached.status !== 200) clearFailure(cached);
    const during = await stack.ledger.balance({ accountId: fresh.accountId });
    expect(during.ok && during.value.available).toBe(10);

    const completed = await inFlight;
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.ranked).toHaveLength(1);
    expect(completed.body.summary.credits_used).toBe(1);
    expect(deadServices(stack)).toEqual([]);

    await pause(Math.max(0, 3_000 - (Date.now() - cutAt)));
    proxy.restore();
    const backAt = Date.now();
    await eventually(async () => ((await ready()) === 200 ? true : undefined), 20_000, "readiness to return");
    const readyAfter = Date.now() - backAt;
    // Ready means ready: the next request of a key never seen before ranks at once.
    const recovered = await rank(stack.baseUrl, fresh.key, { assets: [{ url: creative(6) }], audience, refine_close_pairs: false });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expect(recovered.body.summary).toMatchObject({ credits_used: 1, credits_remaining: 9 });

    // Nothing was charged for the failures; the projection, stalled in the outage, catches up.
    await audit(fresh, [refused, recovered]);
    await audit(warm, [warmUp, completed, savedRefused, cached]);
    expect(deadServices(stack)).toEqual([]);
    console.log(
      `postgres stopped for ${backAt - cutAt} ms: readiness 503 naming postgres after ${redAfter} ms; new key -> ${refused.status} "${refused.body.error}" in ${Math.round(refused.ms)} ms; ` +
        `saved audience -> ${savedRefused.status}; cached key, inline audience -> ${cached.status}; in-flight rank -> ${completed.status} billed ${completed.body.summary.credits_used}; ` +
        `ready ${readyAfter} ms after it returned; nothing charged for failures; projection caught up`,
    );
  }, 90_000);

  it("unresponsive: a request that needs the database still gets a clear answer within the time limit", async () => {
    const account = await stack.createAccountDirect({ credits: 10 });
    // A pooled connection in the gateway that the next look-up will use.
    expect(await ready()).toBe(200);
    const frozeAt = Date.now();
    proxy.freeze();
    let res: HttpResult | null = null;
    let failure = "";
    try {
      // The client waits a little longer than the limit: an answer after that is a hang.
      res = await rank(stack.baseUrl, account.key, { assets: [{ url: creative(7) }], audience, refine_close_pairs: false }, { signal: AbortSignal.timeout(RANK_TIMEOUT_MS + 4_000) });
    } catch (err) {
      failure = String(err);
    }
    const waited = Date.now() - frozeAt;
    const readiness = await call(stack.baseUrl, "GET", "/readyz");
    proxy.restore();
    console.log(`postgres unresponsive: rank answered ${res ? `${res.status} ${JSON.stringify(res.body)}` : `nothing (${failure})`} after ${waited} ms; readiness during it ${readiness.status} ${JSON.stringify(readiness.body?.failed)}`);
    expect(readiness.status).toBe(503);
    expect(res, `no answer within ${RANK_TIMEOUT_MS + 4_000} ms while the database did not respond (limit ${RANK_TIMEOUT_MS} ms)`).not.toBeNull();
    clearFailure(res!);

    await eventually(async () => ((await ready()) === 200 ? true : undefined), 20_000, "readiness to return");
    const recovered = await eventually(async () => {
      const r = await rank(stack.baseUrl, account.key, { assets: [{ url: creative(8) }], audience, refine_close_pairs: false });
      return r.status === 200 ? r : undefined;
    }, 20_000, "a rank to succeed again");
    await audit(account, [res!, recovered]);
    expect(deadServices(stack)).toEqual([]);
  }, 90_000);
});
