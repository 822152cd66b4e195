import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADERS } from "@adrank/messaging";
import { call, type HttpResult } from "../support/http.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Issue 31, attack 8: MAX_BACKGROUND_REQUESTS is documented as the asynchronous requests one
// gateway runs at once, but it only bounded takeovers: fresh `async: true` requests all
// started at once. Now one beyond the limit is accepted (202, stored, reserved) as queued and
// started by a sweep when a slot frees, on this gateway or another. What runs is read off the
// bus: a run is in flight from its first scoring job to its last result.

const LIMIT = 2;
const audience = { name: "Background testers" };
const body = (n: number) => ({ assets: [{ url: creative(400 + n), id: `a${n}` }], audience, refine_close_pairs: false, async: true });

/** Every run's first job and last result on the bus, by the id its jobs travel under. */
function watchRuns(stack: Stack) {
  const runs = new Map<string, { start: number; end: number | null }>();
  const jobs = stack.nc.subscribe(`${stack.namespace}.jobs.>`);
  const results = stack.nc.subscribe(`${stack.namespace}.results.>`);
  void (async () => {
    for await (const m of jobs) {
      const runId = m.headers?.get(HEADERS.requestId) ?? "?";
      if (!runs.has(runId)) runs.set(runId, { start: performance.now(), end: null });
    }
  })();
  void (async () => {
    for await (const m of results) {
      // A result's subject ends with its job id, which starts with the id its run's jobs travel
      // under (`<run>_<asset>_<layer>`), whether it went to the gateway's router or, from an
      // older worker, to the run's own subject.
      const jobId = m.subject.split(".").at(-1) ?? "";
      const run = runs.get(jobId.split("_")[0] ?? "");
      if (run) run.end = performance.now();
    }
  })();
  return {
    runs,
    /** The most runs in flight at one moment. */
    maxInFlight(): number {
      const spans = [...runs.values()].map((r) => ({ start: r.start, end: r.end ?? Number.POSITIVE_INFINITY }));
      return Math.max(0, ...spans.map((s) => spans.filter((o) => o.start <= s.start && s.start < o.end).length));
    },
    stop() {
      jobs.unsubscribe();
      results.unsubscribe();
    },
  };
}

describe("MAX_BACKGROUND_REQUESTS limits the asynchronous requests a gateway runs at once (issue 31, attack 8)", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      voterEnv: false,
      refinementEnv: false,
      // Each run takes a couple of seconds, longer than accepting all six takes.
      scorerEnv: { SIM_LATENCY_MS: "2000" },
      gatewayEnv: { MAX_BACKGROUND_REQUESTS: String(LIMIT), ASYNC_SWEEP_MS: "300", REQUEST_LEASE_MS: "2000" },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  const available = async (a: Account) => {
    const r = await stack.ledger.balance({ accountId: a.accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };
  const post = (baseUrl: string, a: Account, json: unknown, key: string) => call(baseUrl, "POST", "/api/v1/rank", { key: a.key, json, headers: { "Idempotency-Key": key } });
  const finished = async (a: Account, ids: string[], timeoutMs: number): Promise<HttpResult[]> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const answers = await Promise.all(ids.map((id) => call(stack.baseUrl, "GET", `/api/v1/requests/${id}`, { key: a.key })));
      if (answers.every((r) => r.status === 200)) return answers;
      if (Date.now() > until) throw new Error(`not finished in time: ${answers.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 120)}`).join("\n")}\n${stack.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it(`accepts 6 at once, runs at most ${LIMIT} at a time, and finishes all 6, each billed once`, async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const watch = watchRuns(stack);
    try {
      const keys = Array.from({ length: 6 }, () => randomUUID());
      const started = performance.now();
      const accepted = await Promise.all(keys.map((key, i) => post(stack.baseUrl, account, body(i), key)));
      expect(accepted.map((r) => r.status), stack.output()).toEqual(Array(6).fill(202));
      const ids = accepted.map((r) => r.body.request_id as string);
      const queued = accepted.filter((r) => r.body.queued === true);
      console.log(`accepted 6 in ${Math.round(performance.now() - started)} ms; ${queued.length} queued: ${accepted.map((r) => `${r.body.status}${r.body.queued ? "/queued" : ""}`).join(" ")}`);
      expect(queued).toHaveLength(6 - LIMIT);
      for (const r of accepted) expect(r.body.progress).toMatchObject({ done: 0, total: 1 });

      // A queued request reads as queued while it waits, and a repeat of its key is its 202 again.
      const waiting = queued[queued.length - 1]!.body.request_id as string;
      const status = await call(stack.baseUrl, "GET", `/api/v1/requests/${waiting}`, { key: account.key });
      expect(status.status).toBe(202);
      expect(status.body).toMatchObject({ status: "running", queued: true, progress: { done: 0 } });
      const repeat = await post(stack.baseUrl, account, body(ids.indexOf(waiting)), keys[ids.indexOf(waiting)]!);
      expect(repeat.status).toBe(202);
      expect(repeat.body.request_id).toBe(waiting);
      expect(repeat.headers.get("idempotent-replayed")).toBe("true");

      const answers = await finished(account, ids, 90_000);
      const total = performance.now() - started;
      for (const [i, r] of answers.entries()) {
        expect(r.body.request_id).toBe(ids[i]);
        expect(r.body.ranked).toHaveLength(1);
      }
      const spans = [...watch.runs.values()].map((r) => Math.round((r.end ?? NaN) - r.start));
      console.log(`all 6 finished in ${Math.round(total)} ms; runs on the bus: ${watch.runs.size}, each ${spans.join("/")} ms; most in flight at once: ${watch.maxInFlight()}`);
      expect(watch.runs.size).toBe(6);
      expect(watch.maxInFlight()).toBeLessThanOrEqual(LIMIT);
      expect(watch.maxInFlight()).toBe(LIMIT);
      expect(await available(account)).toBe(50 - 6);
      const rows = await stack.database.db.selectFrom("api_requests").select(["state", "attempt"]).where("request_id", "in", ids).execute();
      expect(rows.every((r) => r.state === "succeeded" && r.attempt === 1)).toBe(true);
    } finally {
      watch.stop();
    }
  }, 150_000);

  it("a gateway killed with requests running and queued loses none: the other gateway's sweep finishes them", async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const doomed = await stack.startReplica("gateway", { MAX_BACKGROUND_REQUESTS: "1" });
    const accepted = await Promise.all([10, 11, 12].map((n) => post(doomed.baseUrl, account, body(n), randomUUID())));
    expect(accepted.map((r) => r.status), stack.output()).toEqual([202, 202, 202]);
    expect(accepted.filter((r) => r.body.queued === true)).toHaveLength(2);
    doomed.process.child.kill("SIGKILL");

    const ids = accepted.map((r) => r.body.request_id as string);
    const answers = await finished(account, ids, 90_000);
    expect(answers.map((r) => r.body.ranked.length)).toEqual([1, 1, 1]);
    expect(await available(account)).toBe(50 - 3);
    const rows = await stack.database.db.selectFrom("api_requests").select(["request_id", "state", "attempt"]).where("request_id", "in", ids).execute();
    console.log(`after the kill: ${rows.map((r) => `${r.state}/attempt ${r.attempt}`).join(", ")}`);
    expect(rows.every((r) => r.state === "succeeded")).toBe(true);
  }, 150_000);
});
