import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { call, rank, type HttpResult } from "../support/http.ts";
import { rssMiB } from "../support/process-memory.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Issue 31, attack 5: calibration as a denial of service. Outcomes are free, and every
// stored outcome is bootstrap work for each calibration report, which all accounts share one
// worker thread for. Quotas on metric names and rows refuse (422, nothing written); a report
// reads at most CALIBRATION_OUTCOMES_READ_MAX outcomes and runs one at a time per account, so
// an account filled to its quota does not hold up another tenant's report; and both free
// endpoints have a per-account rate (429 with Retry-After). The gateway runs its defaults.

// The gateway's documented defaults (OUTCOME_METRICS_MAX, OUTCOME_ROWS_MAX, CALIBRATION_MAX_ROWS),
// written out so the test reads the same against any version of the code.
const OUTCOME_METRICS_PER_ACCOUNT = 20;
const OUTCOMES_PER_ACCOUNT = 100_000;
const CALIBRATION_OUTCOMES_READ_MAX = 10_000;
// OUTCOMES_CALLS_PER_MINUTE, CALIBRATION_CALLS_PER_MINUTE
const OUTCOME_CALLS = 60;
const CALIBRATION_CALLS = 30;

/**
 * The light tenant's report, while the heavy one runs its own, answers within this: the
 * heavy report's time limit (CALIBRATION_TIMEOUT_MS, 10 s) and a margin for a loaded machine.
 */
const OTHER_TENANT_BOUND_MS = 15_000;

const audience = { name: "Quota testers" };

describe("outcome quotas, bounded calibration and free-endpoint rates (issue 31, attack 5)", () => {
  let stack: Stack;
  let gatewayPid: number;

  beforeAll(async () => {
    stack = await startStack({ voterEnv: false, refinementEnv: false });
    gatewayPid = stack.processes.find((p) => p.name === "gateway")!.child.pid!;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  /** A succeeded ranking of `n` assets (ids a0…) by the sim scorer. */
  const ranking = async (account: Account, n = 2): Promise<string> => {
    const r = await rank(stack.baseUrl, account.key, { assets: Array.from({ length: n }, (_, i) => ({ url: creative(i + 1), id: `a${i}` })), audience, refine_close_pairs: false });
    expect(r.status, stack.output()).toBe(200);
    return r.body.request_id as string;
  };
  const record = (account: Account, outcomes: unknown[]) => call(stack.baseUrl, "POST", "/api/v1/outcomes", { key: account.key, json: { outcomes } });
  const calibration = (account: Account, query = "") => call(stack.baseUrl, "GET", `/api/v1/calibration${query}`, { key: account.key });
  const storedRows = async (accountId: string) =>
    Number((await stack.database.db.selectFrom("outcomes").select((eb) => eb.fn.countAll<string>().as("n")).where("account_id", "=", accountId).executeTakeFirstOrThrow()).n);

  /**
   * `count` outcomes straight into the table, in rankings of five assets over two goals: the
   * quickest way to an account at its quota. In statements of 20,000 rows, each well inside the
   * harness connection's 5 s query time-out on a busy machine.
   */
  const fill = async (accountId: string, count: number, metric = "ctr") => {
    for (let from = 0; from < count; from += 20_000) {
      await sql`
        insert into outcomes (account_id, request_id, asset_id, metric, value, goal, score, score_before_refine, simulated, request_created_at)
        select ${accountId}, 'r' || (g / 5), 'a' || (g % 5), ${metric}, random(), case when (g / 5) % 2 = 0 then 'engagement' else 'purchase-intent' end, random() * 10, random() * 10, true, now()
        from generate_series(${from}::int, ${Math.min(count, from + 20_000) - 1}::int) as g`.execute(stack.database.db);
    }
  };

  it(`refuses a ${OUTCOME_METRICS_PER_ACCOUNT + 1}st metric name with 422 and records nothing of the batch`, async () => {
    const account = await stack.createAccountDirect({ credits: 10 });
    const requestId = await ranking(account);
    const metrics = Array.from({ length: OUTCOME_METRICS_PER_ACCOUNT }, (_, i) => `m${i}`);
    const first = await record(account, metrics.map((metric) => ({ request_id: requestId, asset_id: "a0", metric, value: 1 })));
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    const refused = await record(account, [
      { request_id: requestId, asset_id: "a1", metric: "m0", value: 2 },
      { request_id: requestId, asset_id: "a1", metric: "one_too_many", value: 2 },
    ]);
    console.log(`metric quota: ${refused.status} ${JSON.stringify(refused.body)}`);
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe("outcomes[1].metric");
    expect(refused.body.error).toContain(`${OUTCOME_METRICS_PER_ACCOUNT} of the ${OUTCOME_METRICS_PER_ACCOUNT}`);
    expect(await storedRows(account.accountId)).toBe(OUTCOME_METRICS_PER_ACCOUNT);

    // Known metric names still take new rows and new values.
    expect((await record(account, [{ request_id: requestId, asset_id: "a1", metric: "m0", value: 2 }])).status).toBe(200);
    expect((await record(account, [{ request_id: requestId, asset_id: "a0", metric: "m1", value: 3 }])).body.updated).toBe(1);
  });

  let heavy: Account;

  it(`refuses rows beyond ${OUTCOMES_PER_ACCOUNT.toLocaleString("en-US")} per account with 422, and still takes new values of stored ones`, async () => {
    heavy = await stack.createAccountDirect({ credits: 10 });
    const requestId = await ranking(heavy);
    const started = performance.now();
    await fill(heavy.accountId, OUTCOMES_PER_ACCOUNT - 1);
    console.log(`filled ${OUTCOMES_PER_ACCOUNT - 1} outcome rows in ${Math.round(performance.now() - started)} ms`);

    const two = [
      { request_id: requestId, asset_id: "a0", metric: "ctr", value: 0.1 },
      { request_id: requestId, asset_id: "a1", metric: "ctr", value: 0.2 },
    ];
    const refused = await record(heavy, two);
    console.log(`row quota: ${refused.status} in ${Math.round(refused.ms)} ms: ${JSON.stringify(refused.body)}`);
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe("outcomes");
    expect(refused.body.error).toContain("at most 100,000");
    expect(await storedRows(heavy.accountId)).toBe(OUTCOMES_PER_ACCOUNT - 1);

    const last = await record(heavy, two.slice(0, 1));
    console.log(`the last row that fits: ${last.status} in ${Math.round(last.ms)} ms`);
    expect(last.status).toBe(200);
    expect((await record(heavy, two.slice(1))).status).toBe(422);
    expect((await record(heavy, [{ ...two[0], value: 0.3 }])).body.updated).toBe(1);
    expect(await storedRows(heavy.accountId)).toBe(OUTCOMES_PER_ACCOUNT);
  }, 120_000);

  it("an account at its quota does not hold up another tenant's calibration beyond a bound", async () => {
    const light = await stack.createAccountDirect({ credits: 0 });
    await fill(light.accountId, 200);
    // The first report starts the worker thread; that moment is not what is measured.
    expect((await calibration(await stack.createAccountDirect({ credits: 0 }))).status).toBe(200);
    const alone = await calibration(light);
    expect(alone.status).toBe(200);

    const rssBefore = rssMiB(gatewayPid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(gatewayPid))), 100);
    // The heavy account asks three times at once; once its rows are read and its bootstrap
    // holds the worker, the light one asks.
    let during: HttpResult;
    let heavyAnswers: HttpResult[];
    try {
      const heavyCalls = [calibration(heavy), calibration(heavy), calibration(heavy)];
      await new Promise((r) => setTimeout(r, 2_500));
      during = await calibration(light);
      heavyAnswers = await Promise.all(heavyCalls);
    } finally {
      clearInterval(sampler);
    }

    const summary = heavyAnswers.map((r) => `${r.status} in ${Math.round(r.ms)} ms`).join(", ");
    console.log(
      `calibration of a 200-outcome tenant: ${Math.round(alone.ms)} ms alone, ${Math.round(during.ms)} ms while a ${OUTCOMES_PER_ACCOUNT}-outcome tenant asked 3 times (${summary}); ` +
        `gateway RSS ${Math.round(rssBefore)} -> peak ${Math.round(rssPeak)} MiB`,
    );
    expect(during.status).toBe(200);
    expect(during.body).toEqual(alone.body);
    expect(during.ms).toBeLessThan(OTHER_TENANT_BOUND_MS);

    // One report at a time per account: the other two are refused at once. The one that runs
    // reads the newest CALIBRATION_OUTCOMES_READ_MAX outcomes, and either answers (saying it
    // was truncated) or stops at its time limit with 503: a busy machine may need longer.
    const refused = heavyAnswers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    const ran = heavyAnswers.find((r) => r.status !== 429)!;
    if (ran.status === 200) {
      expect(ran.body.truncated).toBe(true);
      expect(ran.body.metrics[0].pooled.n_outcomes).toBe(CALIBRATION_OUTCOMES_READ_MAX);
    } else {
      expect(ran.status, JSON.stringify(ran.body)).toBe(503);
      expect(ran.body.error).toMatch(/did not finish within its limit of 10 s/);
      expect(Number(ran.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(ran.ms).toBeLessThan(OTHER_TENANT_BOUND_MS);
    }
    expect(alone.body.truncated).toBeUndefined();
  }, 180_000);

  it("a report over more outcomes than CALIBRATION_MAX_ROWS reads the newest and says it was truncated", async () => {
    const small = await stack.startReplica("gateway", { CALIBRATION_MAX_ROWS: "1000" });
    const res = await call(small.baseUrl, "GET", "/api/v1/calibration?metric=ctr", { key: heavy.key });
    console.log(`a report capped at 1,000 of ${OUTCOMES_PER_ACCOUNT} outcomes: ${res.status} in ${Math.round(res.ms)} ms`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.truncated).toBe(true);
    expect(res.body.metrics[0].pooled.n_outcomes).toBe(1_000);
  }, 90_000);

  it("answers 429 with Retry-After beyond the per-account rate of each free endpoint", { timeout: 90_000 }, async () => {
    const account = await stack.createAccountDirect({ credits: 0 });
    // The windows are the minutes of the clock: start early in one, so all calls fall in it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 30_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const reports: HttpResult[] = [];
    for (let i = 0; i <= CALIBRATION_CALLS; i++) reports.push(await calibration(account));
    const posts: HttpResult[] = [];
    for (let i = 0; i <= OUTCOME_CALLS; i++) posts.push(await record(account, []));
    console.log(`calibration: ${reports.map((r) => r.status).join(" ")}; outcomes: ${posts.filter((r) => r.status === 422).length} x 422 then ${posts.at(-1)!.status}`);

    expect(reports.slice(0, CALIBRATION_CALLS).map((r) => r.status)).toEqual(Array(CALIBRATION_CALLS).fill(200));
    expect(posts.slice(0, OUTCOME_CALLS).map((r) => r.status)).toEqual(Array(OUTCOME_CALLS).fill(422));
    for (const refused of [reports[CALIBRATION_CALLS]!, posts[OUTCOME_CALLS]!]) {
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.body).toMatchObject({ retryAfter, resetAt: expect.any(Number) });
      expect(refused.body.error).toMatch(/per minute\. Retry after \d+ s\./);
    }
    // Another account is not refused for this one's calls.
    expect((await calibration(await stack.createAccountDirect({ credits: 0 }))).status).toBe(200);
  });
});
