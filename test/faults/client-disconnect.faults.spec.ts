import { request as httpRequest } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, Reply } from "../../packages/models/test/support/fake-provider.ts";
// The strict OpenAI fake checks every request as OpenAI would before the script below answers it.
import { openaiChatCompletion, startStrictOpenAI } from "../../packages/models/test/support/strict/openai.ts";
import type { StrictFake } from "../../packages/models/test/support/strict/strict-fake.ts";
import { call, type HttpResult } from "../support/http.ts";
import { pause, settledBalance } from "../support/faults.ts";
import { readAccountEvents } from "../support/ledger-events.ts";
import { creative } from "../support/png.ts";
import { freePort, startStack, type Account, type Stack } from "../support/stack.ts";

// Issue 33, gap 2: a client that left a synchronous request half a second in got the work for
// free: the evaluations already on the bus ran to the end (every model call made) and 0 was
// charged. Here the scorer's generators and the panel's voter sit behind the strict OpenAI
// fake, which answers every chat completion after MODEL_LATENCY_MS, and the client closes its
// socket LEAVE_AFTER_MS after sending (or at the first model call, should that come later).
// Then:
// - no model call starts after the cancel has had GRACE_MS to reach the workers (the calls
//   already sent are aborted, the queued jobs are dropped unrun);
// - the ledger charged what the rule says (what succeeded, and what was dispatched and not
//   answered when the client left), > 0, and exactly what the stored request's sentence says;
// - GET /api/v1/requests/{id} shows the request as failed with that sentence;
// - the workers count the jobs they dropped (adrank_jobs_cancelled_total).

const MODEL_LATENCY_MS = 1_000;
const LEAVE_AFTER_MS = 500;
/** Time for the cancel to travel gateway -> NATS -> worker; a call arriving later was started after it. */
const GRACE_MS = 300;
/** How long after leaving the fake is watched: the queued jobs of the old code started after one model latency. */
const WATCH_AFTER_LEAVING_MS = 3 * MODEL_LATENCY_MS;
const API_KEY = "sk-test-not-real";
const audience = { name: "Parents of toddlers", demographics: { ageRange: "25-34" } };

/** A scorer sample, or a vote when the prompt asks for one. */
const answer = (req: RecordedRequest): Reply | undefined => {
  if (!req.path.startsWith("/v1/chat/completions")) return undefined;
  const body = req.body as { model: string };
  const text = JSON.stringify(req.body).includes("WINNER:")
    ? "The second one shows the product clearly.\nWINNER: 2"
    : "I would stop scrolling for this one.\nRATIONALE: The colours pop.\nPRODUCT: A stroller.";
  return { status: 200, body: openaiChatCompletion(text, body.model), delayMs: MODEL_LATENCY_MS };
};

/**
 * Sends one request over its own socket and destroys the socket once `leaveAfterMs` have passed
 * since the body went out and a model call has arrived, `firstCallAt()` (on a loaded machine
 * the first may come later than `leaveAfterMs`; it still comes a model latency before any
 * answer; after 10 s it leaves without one): the client disconnecting mid-work. Times are performance.now(), the fake's clock.
 */
function sendAndLeave(baseUrl: string, key: string, path: string, json: unknown, leaveAfterMs: number, firstCallAt: () => number | undefined): Promise<{ sentAt: number; leftAt: number; dueAt: number }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(json);
    const req = httpRequest(`${baseUrl}${path}`, { method: "POST", agent: false, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } });
    req.on("response", (res) => reject(new Error(`answered ${res.statusCode} before the client left`)));
    // The destroy below ends the socket with an error on our side: that is the point.
    req.on("error", () => undefined);
    req.end(body, () => {
      const sentAt = performance.now();
      const poll = setInterval(() => {
        const called = firstCallAt();
        const waited = performance.now() - sentAt;
        // Leaves anyway after 10 s without a model call: the assertions then say what went wrong.
        if (waited < leaveAfterMs || (called === undefined && waited < 10_000)) return;
        // When it should have left: a later leftAt means this process was held up.
        const dueAt = Math.max(sentAt + leaveAfterMs, called ?? performance.now());
        clearInterval(poll);
        req.destroy();
        resolve({ sentAt, leftAt: performance.now(), dueAt });
      }, 10);
    });
  });
}

/** A counter's series on a worker's /metrics, by the value of one label. */
async function counterBy(metricsUrl: string, name: string, label: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const out: Record<string, number> = {};
  for (const l of text.split("\n").filter((l) => l.startsWith(`${name}{`))) {
    const key = new RegExp(`${label}="([^"]*)"`).exec(l)?.[1] ?? "";
    out[key] = (out[key] ?? 0) + Number(l.slice(l.lastIndexOf(" ") + 1));
  }
  return out;
}

const sum = (byLabel: Record<string, number>) => Object.values(byLabel).reduce((s, n) => s + n, 0);
const counter = async (metricsUrl: string, name: string) => sum(await counterBy(metricsUrl, name, "phase"));

/** "... billed: 8 scoring evaluations that had succeeded or been dispatched to the models when it left (8 credits). ..." */
const BILLED = /billed: (\d+) (?:scoring evaluations?|pairwise panels?) that had succeeded or been dispatched to the models when it left \((\d+) credits?(, awaiting the ledger's confirmation)?\)/;

describe("a client disconnects mid-request", () => {
  let provider: StrictFake;
  let stack: Stack;
  let scorerMetrics = "";
  let voterMetrics = "";

  beforeAll(async () => {
    provider = await startStrictOpenAI({ apiKey: API_KEY, reply: answer });
    const [scorerPort, voterPort] = [await freePort(), await freePort()];
    const openai = { OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: API_KEY };
    stack = await startStack({
      logLevel: "warn",
      refinementEnv: false,
      // The embedder stays sim (no call to the fake): the generators' calls are what is counted.
      scorerEnv: { ...openai, ADRANK_GENERATORS: "openai:gpt-4.1-mini,openai:gpt-4o-mini", HEALTH_PORT: String(scorerPort), HEALTH_HOST: "127.0.0.1" },
      voterEnv: { ...openai, ADRANK_VOTER: "openai:gpt-4.1-mini", HEALTH_PORT: String(voterPort), HEALTH_HOST: "127.0.0.1" },
    });
    scorerMetrics = `http://127.0.0.1:${scorerPort}/metrics`;
    voterMetrics = `http://127.0.0.1:${voterPort}/metrics`;
    // Warm-up, answered in full: the fake compiles OpenAI's schema on its first request (which
    // holds this process's event loop, and with it the moment the client leaves), and the
    // services open their connections to it.
    const warm = await stack.createAccountDirect({ credits: 10 });
    const ranked = await call(stack.baseUrl, "POST", "/api/v1/rank", { key: warm.key, json: { assets: [{ url: creative(699) }], audience, refine_close_pairs: false } });
    expect(ranked.status, JSON.stringify(ranked.body)).toBe(200);
    const compared = await call(stack.baseUrl, "POST", "/api/v1/pairwise", { key: warm.key, json: { pairs: [{ pair_id: "warm", a: { id: "a", image_url: creative(698) }, b: { id: "b", image_url: creative(697) } }], audience } });
    expect(compared.status, JSON.stringify(compared.body)).toBe(200);
  }, 120_000);
  // Whatever the services sent must be what OpenAI accepts.
  afterEach(() => expect(provider.refusals.map((r) => r.rule)).toEqual([]));
  afterAll(async () => {
    await stack?.stop();
    await provider?.close();
  }, 30_000);

  /**
   * Leaves `path` LEAVE_AFTER_MS in, watches the fake, then checks the bill three ways: the
   * ledger's balance, the reservation's UsageSettled event and the stored request's sentence.
   */
  const leaveAndAudit = async (account: Account, path: string, json: unknown) => {
    const first = provider.requests.length;
    const abandonedBefore = provider.abandoned();
    const firstCallAt = () => provider.requests.slice(first).find((r) => r.path.startsWith("/v1/chat/completions"))?.receivedAt;
    const { sentAt, leftAt, dueAt } = await sendAndLeave(stack.baseUrl, account.key, path, json, LEAVE_AFTER_MS, firstCallAt);
    // A late timer would measure another disconnect than the one this test is about.
    expect(leftAt - dueAt).toBeLessThan(200);
    await pause(Math.max(0, leftAt + WATCH_AFTER_LEAVING_MS - performance.now()));
    const calls = provider.requests.slice(first).filter((r) => r.path.startsWith("/v1/chat/completions"));
    const before = calls.filter((c) => c.receivedAt <= leftAt).length;
    const late = calls.filter((c) => c.receivedAt > leftAt + GRACE_MS);

    // The reservation id is the request id; its one UsageSettled says what was charged.
    const balance = await settledBalance(stack, account.accountId);
    const events = (await readAccountEvents(stack.nc, stack.topo, account.accountId)).map((e) => e.event);
    const reserved = events.find((e) => e.type === "UsageReserved");
    const settled = events.filter((e) => e.type === "UsageSettled");
    expect(reserved, JSON.stringify(events)).toBeDefined();
    expect(settled, JSON.stringify(events)).toHaveLength(1);
    const requestId = reserved!.reservationId;
    const granted = events.reduce((s, e) => s + (e.type === "CreditsGranted" ? e.credits : 0), 0);
    const charged = granted - balance.available;

    // The stored request, polled: it is written after the settle (the last answer is returned whatever it is).
    let stored: HttpResult | null = null;
    for (const until = performance.now() + 10_000; performance.now() < until; await pause(200)) {
      stored = await call(stack.baseUrl, "GET", `/api/v1/requests/${requestId}`, { key: account.key });
      if (stored.status === 200) break;
    }
    const settledUnits = settled.reduce((n, e) => n + (e.type === "UsageSettled" ? e.unitsUsed : 0), 0);
    return { sentAt, leftAt, calls, before, late, charged, settledUnits, stored: stored!, abandoned: provider.abandoned() - abandonedBefore };
  };

  /** Jobs the worker counted as cancelled since `before`, once it has counted some (0 after 5 s of none), and the counter by phase. */
  const cancelledSince = async (metricsUrl: string, before: number) => {
    let n = 0;
    let phases: Record<string, number> = {};
    for (const until = performance.now() + 5_000; performance.now() < until && n === 0; await pause(200)) {
      phases = await counterBy(metricsUrl, "adrank_jobs_cancelled_total", "phase");
      n = sum(phases) - before;
    }
    return { n, phases: Object.entries(phases).map(([phase, count]) => `${phase} ${count}`).join(", ") };
  };

  type Audit = Awaited<ReturnType<typeof leaveAndAudit>>;
  /** The figures first (so a failing run still prints them), then every claim in turn. */
  const expectStoppedAndBilled = (r: Audit, { n: cancelled, phases }: { n: number; phases: string }, o: { label: string; what: string; operation: string; maxUnits: number; callsPerUnit: number }) => {
    const sentence = String(r.stored.body?.error ?? "");
    console.log(
      `[${o.label}] calls after leaving: ${r.late.length}; calls before: ${r.before}; billed: ${r.charged} credits ` +
        `(${o.what}, left after ${Math.round(r.leftAt - r.sentAt)} ms, model latency ${MODEL_LATENCY_MS} ms; ${r.calls.length} chat calls in all, ` +
        `${r.abandoned} aborted in flight, ${cancelled} jobs cancelled on the worker (since it started: ${phases || "none"}); stored: ${r.stored.status} "${sentence}")`,
    );
    // (a) No model call was started after the cancel had time to reach the workers (ms after leaving listed).
    expect(r.late.map((c) => Math.round(c.receivedAt - r.leftAt))).toEqual([]);
    expect(r.before).toBeGreaterThan(0);
    // (b) Billed, more than 0, once, and exactly what the stored sentence says.
    const billed = BILLED.exec(sentence);
    expect(billed, sentence).not.toBeNull();
    const [units, credits] = [Number(billed![1]), Number(billed![2])];
    expect(r.charged).toBeGreaterThan(0);
    expect(r.charged).toBe(credits);
    expect(r.settledUnits).toBe(units);
    expect(units).toBeLessThanOrEqual(o.maxUnits);
    // Nothing had answered when it left (the first answers come after MODEL_LATENCY_MS), so the
    // calls made were all for units it was billed for.
    expect(r.before).toBeLessThanOrEqual(units * o.callsPerUnit);
    // (c) GET /api/v1/requests/{id} tells the story.
    expect(r.stored.status).toBe(200);
    expect(r.stored.body).toMatchObject({ request_id: expect.any(String), operation: o.operation, status: "failed" });
    expect(sentence).toMatch(/^The client disconnected before the answer was sent\..*was cancelled\.$/);
    // (d) The worker dropped jobs of the cancelled run.
    expect(cancelled).toBeGreaterThan(0);
  };

  it("rank: no model call starts after the client left, the evaluations it set going are billed and the stored request says so", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const cancelledBefore = await counter(scorerMetrics, "adrank_jobs_cancelled_total");
    // 8 assets with copy: 16 evaluations at most, 8 of them (4 assets) dispatched at once.
    const assets = Array.from({ length: 8 }, (_, i) => ({ id: `a${i}`, url: creative(700 + i), copy_context: { adHeadline: `Fold it in one hand (${i})`, adBody: "Free returns for 100 days." } }));
    const r = await leaveAndAudit(account, "/api/v1/rank", { assets, audience, refine_close_pairs: false });
    const cancelled = await cancelledSince(scorerMetrics, cancelledBefore);
    // An evaluation is 6 generator calls (the embedder is sim).
    expectStoppedAndBilled(r, cancelled, { label: "client-disconnect", what: "rank of 8 assets with copy", operation: "rank", maxUnits: 16, callsPerUnit: 6 });
  }, 60_000);

  it("pairwise: no vote starts after the client left, the panels it set going are billed and the stored request says so", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const cancelledBefore = await counter(voterMetrics, "adrank_jobs_cancelled_total");
    // 10 pairs: 50 votes, of which the voter takes 32 at once (VOTER_CONCURRENCY).
    const pairs = Array.from({ length: 10 }, (_, i) => ({ pair_id: `p${i}`, a: { id: `a${i}`, image_url: creative(800 + i) }, b: { id: `b${i}`, image_url: creative(850 + i) } }));
    const r = await leaveAndAudit(account, "/api/v1/pairwise", { pairs, audience });
    const cancelled = await cancelledSince(voterMetrics, cancelledBefore);
    // A panel is 5 votes, one model call each.
    expectStoppedAndBilled(r, cancelled, { label: "client-disconnect pairwise", what: "pairwise of 10 pairs", operation: "pairwise", maxUnits: 10, callsPerUnit: 5 });
  }, 60_000);
});
