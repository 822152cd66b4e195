import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, rank, type HttpResult } from "../support/http.ts";
import { accountInStream, billedAnswer, billingDiscrepancies, deadServices, eventually, pause, projectionAgrees, settledBalance, startPrivateNats, startReplyLosingProxy } from "../support/faults.ts";
import { creative } from "../support/png.ts";
import { freePort, startStack, type Account, type Stack } from "../support/stack.ts";

// NATS goes down for a few seconds and comes back while rank requests are in flight (a NATS
// of this test's own: the shared one is never touched; its JetStream store survives the
// restart as a real server's would). Services reconnect; every request ends with a clear
// answer (200 with per-asset errors, or a 5xx JSON error) within the request's time limit
// (RANK_TIMEOUT_MS is 15 s here, 120 s in production), never a hang or an empty reply;
// reservations settle or expire, so after things settle each account's balance is its grant
// minus the credits_used of its 200 answers.

const RANK_TIMEOUT_MS = 15_000;
const DOWN_MS = 4_000;
const WORKERS = 4;
const audience = { name: "Urban commuters", demographics: {} };

interface Outcome {
  account: Account;
  assets: number;
  startedAt: number;
  ms: number;
  res: HttpResult | null;
  error?: string;
}

describe("NATS restarts during traffic", () => {
  let nats: Awaited<ReturnType<typeof startPrivateNats>>;
  let stack: Stack;

  beforeAll(async () => {
    nats = await startPrivateNats();
    stack = await startStack({
      natsUrl: nats.url,
      logLevel: "warn",
      refinementEnv: false,
      voterEnv: false,
      ledgerEnv: { LEDGER_RESERVATION_TTL_MS: "4000", LEDGER_SWEEP_INTERVAL_MS: "500" },
      // Two settle attempts (1.5 s each) fit inside the outage: a settlement can be lost in it.
      gatewayEnv: { RANK_TIMEOUT_MS: String(RANK_TIMEOUT_MS), LEDGER_TIMEOUT_MS: "1500" },
      // A job whose result or ack was cut off by the outage is redelivered after the ack wait:
      // 3 s here against a 15 s limit (30 s against 120 s in production).
      scorerEnv: { SIM_LATENCY_MS: "300", SCORER_ACK_WAIT_MS: "3000" },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await nats?.close();
  }, 30_000);

  it("ends every request clearly within the limit, reconnects, and leaks no credit", async () => {
    // One account per worker: each stays well below its key's 60 evaluations a minute.
    const accounts: Account[] = [];
    for (let i = 0; i < WORKERS; i++) accounts.push(await stack.createAccountDirect({ credits: 200 }));
    const outcomes: Outcome[] = [];
    let stopAt = Infinity;
    let n = 0;
    const worker = async (account: Account) => {
      while (Date.now() < stopAt) {
        const i = n++;
        const assets = [{ url: creative(i % 30) }, ...(i % 2 ? [{ url: creative((i + 7) % 30), copy_context: { adBody: `Commute ${i}` } }] : [])];
        const startedAt = Date.now();
        try {
          const res = await rank(stack.baseUrl, account.key, { assets, audience, refine_close_pairs: false });
          outcomes.push({ account, assets: assets.length, startedAt, ms: Date.now() - startedAt, res });
        } catch (err) {
          outcomes.push({ account, assets: assets.length, startedAt, ms: Date.now() - startedAt, res: null, error: String((err as Error).cause ?? err) });
        }
        await pause(100);
      }
    };
    const traffic = Promise.all(accounts.map(worker));
    await pause(1_500);
    const downAt = Date.now();
    await nats.restart(DOWN_MS);
    const upAt = Date.now();
    stopAt = upAt + 3_000;
    await traffic;

    // Every request got an HTTP answer with a JSON body that says what happened, in time.
    const statuses: Record<string, number> = {};
    const assetErrors: Record<string, number> = {};
    for (const o of outcomes) {
      const what = o.res ? String(o.res.status) : `no answer (${o.error})`;
      statuses[what] = (statuses[what] ?? 0) + 1;
      expect(o.error, "every request gets an HTTP answer").toBeUndefined();
      const { status, body } = o.res!;
      expect([200, 500, 503], JSON.stringify(body)).toContain(status);
      expect(body, `a ${status} with an empty or non-JSON body`).toEqual(expect.any(Object));
      if (status === 200) {
        expect(body.ranked.length + body.errors.length).toBe(o.assets);
        expect(body.summary.assets_failed).toBe(body.errors.length);
        for (const e of body.errors) {
          expect(e.error).toMatch(/\w{3,}.*\./);
          assetErrors[e.error] = (assetErrors[e.error] ?? 0) + 1;
        }
      } else {
        expect(body.error).toEqual(expect.any(String));
        expect(body.error.length).toBeGreaterThan(10);
      }
      expect(o.ms, `a request took ${o.ms} ms`).toBeLessThan(RANK_TIMEOUT_MS + 1_000);
    }
    expect(outcomes.filter((o) => o.res?.status === 200 && o.startedAt < downAt).length).toBeGreaterThan(0);
    expect(deadServices(stack)).toEqual([]);

    // The services are back: ready, and a new request ranks every asset.
    await eventually(async () => ((await call(stack.baseUrl, "GET", "/readyz")).status === 200 ? true : undefined), 20_000, "the gateway to be ready again");
    const after = await rank(stack.baseUrl, accounts[0]!.key, { assets: [{ url: creative(33) }], audience, refine_close_pairs: false });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.errors).toEqual([]);
    const firstBack = outcomes.filter((o) => o.startedAt >= upAt && o.res?.status === 200 && o.res.body.errors.length === 0).map((o) => o.startedAt + o.ms - upAt);

    // No credit leaks: per account, answers, balance, stream and projection agree.
    const problems: string[] = [];
    for (const account of accounts) {
      const answers = outcomes.filter((o) => o.account === account).map((o) => billedAnswer(o.res!));
      if (account === accounts[0]) answers.push(billedAnswer(after));
      const balance = await settledBalance(stack, account.accountId);
      const stream = await accountInStream(stack, account.accountId);
      problems.push(...billingDiscrepancies(stream, balance, answers).map((p) => `${account.accountId}: ${p}`));
      await projectionAgrees(stack, account.accountId, stream, balance);
    }

    const spanning = outcomes.filter((o) => o.startedAt < upAt && o.startedAt + o.ms > downAt);
    const slowest = Math.max(...outcomes.map((o) => o.ms));
    const errorBodies = [...new Set(outcomes.filter((o) => o.res && o.res.status !== 200).map((o) => `${o.res!.status} "${o.res!.body.error}"`))];
    const unconfirmed = outcomes.filter((o) => o.res?.status === 200 && o.res.body.summary.credits_remaining === null).length;
    console.log(
      `NATS down ${upAt - downAt} ms during ${outcomes.length} requests: by status ${JSON.stringify(statuses)} (${errorBodies.join(", ")}); ` +
        `${spanning.length} were in flight across the outage (${spanning.map((o) => `${o.res?.status}/${o.ms}ms`).join(", ")}); slowest ${slowest} ms (limit ${RANK_TIMEOUT_MS}); ` +
        `per-asset errors ${JSON.stringify(assetErrors)}; ${unconfirmed} answers with an unconfirmed settlement; ${firstBack.length ? `first clean 200 done ${Math.min(...firstBack)} ms after NATS returned` : "no request was started and finished between NATS's return and the end of traffic"}; ` +
        `projection agrees with the stream; billing discrepancies: ${problems.length ? problems.join(" | ") : "none"}`,
    );
    expect(problems).toEqual([]);
  }, 120_000);

  // A partition of the gateway alone, right after it asked the ledger something: the ledger
  // handles the command, its reply is lost (the gateway's NATS connection goes through a proxy
  // that stops passing the server's bytes, then drops the connection). Whatever the gateway
  // answers must match what the ledger did.
  it("answers truthfully about credits when the ledger's reply to a reservation or a settlement is lost", async () => {
    const proxy = await startReplyLosingProxy(Number(new URL(nats.url).port));
    try {
      const gateway = await stack.startReplica("gateway", { NATS_URL: proxy.url });
      const account = await stack.createAccountDirect({ credits: 20 });
      const answers: Array<ReturnType<typeof billedAnswer>> = [];
      const seen = (trigger: string) => Promise.race([proxy.loseRepliesAfter(trigger, 4_000), pause(20_000).then(() => null)]);

      // The settlement's reply is lost (both attempts): the work is done and settled by the ledger.
      const settleLost = seen(stack.topo.ledgerRpc.settle);
      const settled = await rank(gateway.baseUrl, account.key, { assets: [{ url: creative(40) }], audience, refine_close_pairs: false });
      expect(await settleLost, "the settlement went through the proxy").not.toBeNull();
      expect(settled.status, JSON.stringify(settled.body)).toBe(200);
      expect(settled.body.ranked).toHaveLength(1);
      answers.push(billedAnswer(settled));

      await eventually(async () => ((await call(gateway.baseUrl, "GET", "/readyz")).status === 200 ? true : undefined), 20_000, "the partitioned gateway to reconnect");

      // The reservation's reply is lost: the request fails clearly and must cost nothing.
      const reserveLost = seen(stack.topo.ledgerRpc.reserve);
      const refused = await rank(gateway.baseUrl, account.key, { assets: [{ url: creative(41) }], audience, refine_close_pairs: false });
      expect(await reserveLost, "the reservation went through the proxy").not.toBeNull();
      expect([500, 503]).toContain(refused.status);
      expect(refused.body.error).toEqual(expect.any(String));
      answers.push(billedAnswer(refused));

      const balance = await settledBalance(stack, account.accountId);
      const stream = await accountInStream(stack, account.accountId);
      console.log(
        `ledger reply lost: settle -> ${settled.status} credits_used ${settled.body.summary.credits_used}, credits_remaining ${settled.body.summary.credits_remaining} in ${Math.round(settled.ms)} ms; ` +
          `reserve -> ${refused.status} "${refused.body.error}" in ${Math.round(refused.ms)} ms; ledger: ${JSON.stringify([...stream.reservations.values()])}, balance ${balance.available} of 20`,
      );
      expect(billingDiscrepancies(stream, balance, answers)).toEqual([]);
      await projectionAgrees(stack, account.accountId, stream, balance);
    } finally {
      await proxy.close();
    }
  }, 90_000);

  // Issue 33: every reply to a settle is lost until after the answer must go. The answer says
  // the charge is pending with what it costs (never 0); the settlement outbox's relay applies
  // it once the gateway is reachable again, and the stored answer then shows the ledger's figures.
  it("answers a settle the ledger never confirms in time as pending with what it costs, and GET later shows it confirmed", async () => {
    const proxy = await startReplyLosingProxy(Number(new URL(nats.url).port));
    try {
      const healthPort = await freePort();
      const gateway = await stack.startReplica("gateway", { NATS_URL: proxy.url, SETTLEMENT_RELAY_MS: "250", HEALTH_PORT: String(healthPort), HEALTH_HOST: "127.0.0.1" });
      // One series of the gateway's /metrics: the metric's name, with the given label if any.
      const metric = async (name: string, label = "") => {
        const lines = (await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text()).split("\n");
        const line = lines.find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && l.includes(label));
        return line === undefined ? null : Number(line.split(" ").at(-1));
      };
      const account = await stack.createAccountDirect({ credits: 20 });
      // Longer than the settle's whole retry window (the request limit less two ledger round trips).
      const settleLost = Promise.race([proxy.loseRepliesAfter(stack.topo.ledgerRpc.settle, RANK_TIMEOUT_MS), pause(20_000).then(() => null)]);
      const answered = await rank(gateway.baseUrl, account.key, { assets: [{ url: creative(42) }], audience, refine_close_pairs: false });
      expect(await settleLost, "the settlement went through the proxy").not.toBeNull();
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      const requestId = answered.body.request_id as string;
      expect(answered.body.summary).toMatchObject({ scoring_evaluations: 1, credits_used: 1, credits_remaining: null, credits_status: "pending" });
      expect(answered.ms).toBeLessThan(RANK_TIMEOUT_MS);
      // The operator sees it waiting, until the relay has applied it.
      expect(await metric("adrank_settlements_total", 'outcome="pending"')).toBe(1);
      expect(await metric("adrank_settlements_pending")).toBe(1);

      const confirmedAt = performance.now();
      const stored = await eventually(async () => {
        const r = await call(gateway.baseUrl, "GET", `/api/v1/requests/${requestId}`, { key: account.key });
        return r.status === 200 && r.body.summary.credits_status === "confirmed" ? r.body : undefined;
      }, 40_000, "the stored answer to show the confirmed charge").catch((err: unknown) => {
        // What the relay and the ledger said meanwhile, for whoever reads the failure.
        const relayed = stack.output().split("\n").filter((l) => /settle|relay|outbox/i.test(l)).slice(-30).join("\n");
        throw new Error(`${err instanceof Error ? err.message : String(err)}\n${relayed}`);
      });
      const confirmedMs = Math.round(performance.now() - confirmedAt);
      expect(stored.summary).toMatchObject({ credits_used: 1, credits_remaining: 19, credits_status: "confirmed" });
      // Whichever gateway's relay applied it (every gateway runs one), none is pending any more.
      expect(await metric("adrank_settlements_pending")).toBe(0);
      // Nothing else of the stored answer changed.
      expect({ ...stored, summary: { ...stored.summary, credits_remaining: null, credits_status: "pending" } }).toEqual(answered.body);

      const balance = await settledBalance(stack, account.accountId);
      const stream = await accountInStream(stack, account.accountId);
      console.log(
        `settle unconfirmed in time: answered 200 in ${Math.round(answered.ms)} ms with credits_used 1, credits_status "pending"; GET showed credits_remaining ${stored.summary.credits_remaining}, "confirmed" ${confirmedMs} ms after the answer; ledger: ${JSON.stringify([...stream.reservations.values()])}, balance ${balance.available} of 20`,
      );
      expect(billingDiscrepancies(stream, balance, [billedAnswer(answered)])).toEqual([]);
      await projectionAgrees(stack, account.accountId, stream, balance);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
