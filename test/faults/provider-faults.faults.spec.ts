import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, Reply } from "../../packages/models/test/support/fake-provider.ts";
// The strict OpenAI fake checks every request as OpenAI would before the fault script plays.
import { startStrictOpenAI } from "../../packages/models/test/support/strict/openai.ts";
import type { StrictFake } from "../../packages/models/test/support/strict/strict-fake.ts";
import { rank, type HttpResult } from "../support/http.ts";
import { accountInStream, billedAnswer, billingDiscrepancies, deadServices, eventually, pause } from "../support/faults.ts";
import { chatCompletion } from "../support/openai-wire.ts";
import { readAccountEvents } from "../support/ledger-events.ts";
import { creative } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";

// The scorer's two generators behind a local server speaking the OpenAI wire format, made to
// hang, fail, rate-limit or talk nonsense. The caller gets a 200 with per-asset errors (never
// billed) or, once the provider recovers, scores, always within the request's time limit.
// RANK_TIMEOUT_MS is 8 s here so the limit is checked quickly: the same code enforces the
// 120 s of production (RANK_TIMEOUT_MS defaults to, and is capped at, 120000).
// First the scorer runs with a short per-call timeout (2 s, one retry): a hung provider is cut
// off by the model timeout. Then with a per-call timeout (60 s) far beyond the request limit:
// the request's own deadline must end the wait, cancel the hung calls and free the scorer.

const RANK_TIMEOUT_MS = 8_000;
const audience = { name: "First-time buyers", demographics: {} };
const FAIL_MARK = "FAIL-THIS-PACKAGE";
const KEEP_MARK = "KEEP-THIS-COPY";

type Mode = "ok" | "hang" | "500" | "html" | "json-garbage" | "429-always" | "429-then-ok" | "fail-marked" | "fail-unmarked";

const ok = (): Reply => ({ status: 200, body: chatCompletion("I would stop scrolling for this one, probably.\nRATIONALE: The colours pop.\nPRODUCT: A gadget.", "gpt-4.1-mini") });
const serverError = (): Reply => ({ status: 500, body: { error: { message: "upstream exploded sk-test-not-real", type: "server_error", param: null, code: null } } });

describe("a model provider misbehaves", () => {
  let provider: StrictFake;
  let stack: Stack;
  let mode: Mode = "ok";
  let modeStartedAt = 0;

  beforeAll(async () => {
    provider = await startStrictOpenAI({ apiKey: "sk-test-not-real", reply: (req: RecordedRequest): Reply => {
      const text = JSON.stringify(req.body);
      switch (mode) {
        case "ok":
          return ok();
        case "hang":
          return { hang: true };
        case "500":
          return serverError();
        case "html":
          return { status: 200, headers: { "content-type": "text/html" }, body: "<html><body>502 Bad Gateway (from a proxy)</body></html>" };
        case "json-garbage":
          return { status: 200, body: { object: "surprise", data: [1, 2, 3] } };
        case "429-always":
          return { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down", type: "rate_limit", param: null, code: null } } };
        case "429-then-ok":
          // Everything in the first 700 ms is refused with "retry after 1 s": a client that
          // retried sooner would be refused again and, with one retry allowed, fail the asset.
          return req.receivedAt - modeStartedAt < 700 ? { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down", type: "rate_limit", param: null, code: null } } } : ok();
        case "fail-marked":
          return text.includes(FAIL_MARK) ? serverError() : ok();
        case "fail-unmarked":
          return text.includes(KEEP_MARK) ? ok() : serverError();
      }
    } });
    stack = await startStack({
      logLevel: "warn",
      voterEnv: false,
      refinementEnv: false,
      scorerEnv: { ADRANK_GENERATORS: "openai:gpt-4.1-mini,openai:gpt-4o-mini", OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test-not-real", MODEL_TIMEOUT_MS: "2000", MODEL_MAX_RETRIES: "1" },
      gatewayEnv: { RANK_TIMEOUT_MS: String(RANK_TIMEOUT_MS) },
    });
  }, 120_000);
  // Whatever the fault script plays, what the scorer sent must be what OpenAI accepts.
  afterEach(() => expect(provider.refusals.map((r) => r.rule)).toEqual([]));
  afterAll(async () => {
    await stack?.stop();
    await provider?.close();
  }, 30_000);

  const run = async (m: Mode, assets: unknown[] = [{ url: creative(21), id: "one" }, { url: creative(22), id: "two" }]) => {
    mode = m;
    // The fake provider stamps requests with performance.now(): the same clock here.
    modeStartedAt = performance.now();
    const calls = provider.requests.length;
    const account = await stack.createAccountDirect({ credits: 10 });
    const res = await rank(stack.baseUrl, account.key, { assets, audience, refine_close_pairs: false });
    const balance = await stack.ledger.balance({ accountId: account.accountId });
    return { res, ms: Math.round(res.ms), available: balance.ok ? balance.value.available : NaN, calls: provider.requests.slice(calls), accountId: account.accountId };
  };
  /** The answer is a 200 whose every asset failed with a readable sentence, and nothing was billed. */
  const allFailed = (res: HttpResult, available: number) => {
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.ranked).toEqual([]);
    expect(res.body.errors.map((e: { asset_id: string }) => e.asset_id).sort()).toEqual(["one", "two"]);
    for (const e of res.body.errors) {
      expect(e.error.length).toBeGreaterThan(15);
      // Our sentence, never the provider's text, our key, or a stack.
      expect(e.error).not.toMatch(/sk-test|upstream exploded|<html>|surprise|at \w+ \(/);
    }
    expect(res.body.summary).toMatchObject({ assets_ranked: 0, assets_failed: 2, scoring_evaluations: 0, credits_used: 0, credits_remaining: 10 });
    expect(available).toBe(10);
    expect(res.ms).toBeLessThan(RANK_TIMEOUT_MS + 500);
  };

  it.each([
    ["hang", "hangs (each call cut off by the 2 s model timeout)", /did not answer in time/],
    ["500", "answers 500 to everything", /unavailable/],
    ["html", "answers HTML instead of JSON", /could not be used/],
    ["json-garbage", "answers JSON of the wrong shape", /could not be used/],
    ["429-always", "keeps answering 429 with Retry-After", /rate limiting/],
  ] as const)("when the provider %s: per-asset errors, nothing billed, within the time limit", async (m, label, sentence) => {
    const { res, ms, available, calls } = await run(m);
    allFailed(res, available);
    for (const e of res.body.errors) expect(e.error).toMatch(sentence);
    console.log(`provider ${label}: 200 with 2 per-asset errors in ${ms} ms after ${calls.length} provider calls ("${res.body.errors[0].error}"); nothing billed`);
  }, 30_000);

  it("honours Retry-After on 429 and then scores, billing what succeeded", async () => {
    const { res, ms, available, calls } = await run("429-then-ok");
    expect(res.status).toBe(200);
    expect(res.body.ranked, JSON.stringify(res.body.errors).slice(0, 300)).toHaveLength(2);
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 2, credits_used: 2, credits_remaining: 8 });
    expect(available).toBe(8);
    const refused = calls.filter((c) => c.receivedAt - modeStartedAt < 700);
    const answered = calls.filter((c) => c.receivedAt - modeStartedAt >= 700);
    expect(refused.length).toBeGreaterThan(0);
    // Every call that got through came at least the asked-for second after the first refusal.
    const firstRefusal = Math.min(...refused.map((c) => c.receivedAt));
    const earliestRetry = Math.min(...answered.map((c) => c.receivedAt)) - firstRefusal;
    expect(earliestRetry).toBeGreaterThanOrEqual(950);
    console.log(`provider 429 with Retry-After 1: ${refused.length} calls refused, ranked both assets in ${ms} ms; the earliest retry came ${Math.round(earliestRetry)} ms after the first refusal`);
  }, 30_000);

  it("names the provider's models in the answer and records the tokens it reported with the settlement", async () => {
    const { res, accountId } = await run("ok");
    expect(res.status).toBe(200);
    // The generators are real (the fake speaks OpenAI's wire format); the embedder is still sim, and the answer says so.
    expect(res.body.summary.models).toEqual({ generators: ["openai:gpt-4.1-mini", "openai:gpt-4o-mini"], embedder: "sim:sim-embed", voters: [], simulated: true });
    const events = (await readAccountEvents(stack.nc, stack.topo, accountId)).map((e) => e.event);
    const settled = events.find((e) => e.type === "UsageSettled");
    // Two assets, six samples each, split over the two generators; every completion reports 900 tokens in and 20 out.
    expect(settled && "modelUsage" in settled ? settled.modelUsage : undefined).toEqual([
      { model: "openai:gpt-4.1-mini", calls: 6, inputTokens: 5400, outputTokens: 120 },
      { model: "openai:gpt-4o-mini", calls: 6, inputTokens: 5400, outputTokens: 120 },
      { model: "sim:sim-embed", calls: 2, inputTokens: 0, outputTokens: 0 },
    ]);
  }, 30_000);

  it("bills only what succeeded when the provider fails some calls", async () => {
    // The full ad package of one asset fails (its prompt carries the copy); its image-only
    // ablation and the other asset succeed. A failed asset costs nothing, whatever else of it ran.
    const mixed = await run("fail-marked", [
      { url: creative(23), id: "package-fails", copy_context: { adBody: `${FAIL_MARK}: two for one this week only.` } },
      { url: creative(24), id: "plain" },
    ]);
    expect(mixed.res.status).toBe(200);
    expect(mixed.res.body.ranked.map((r: { asset_id: string }) => r.asset_id)).toEqual(["plain"]);
    expect(mixed.res.body.errors.map((e: { asset_id: string }) => e.asset_id)).toEqual(["package-fails"]);
    expect(mixed.res.body.summary).toMatchObject({ assets_ranked: 1, assets_failed: 1, scoring_evaluations: 1, credits_used: 1, credits_remaining: 9 });
    expect(mixed.available).toBe(9);

    // Only the image-only ablation fails (its prompt has no copy): the asset is ranked, its
    // ablation figures are left out, and it costs 1 evaluation instead of 2.
    const ablation = await run("fail-unmarked", [{ url: creative(25), id: "ablation-fails", copy_context: { adBody: `${KEEP_MARK}: free returns.` } }]);
    expect(ablation.res.status).toBe(200);
    const [ranked] = ablation.res.body.ranked;
    expect(ranked).toMatchObject({ asset_id: "ablation-fails", score_layer: "full-ad-package" });
    expect(ranked.image_only_score ?? null).toBeNull();
    expect(ranked.copy_lift ?? null).toBeNull();
    expect(ablation.res.body.summary).toMatchObject({ scoring_evaluations: 1, credits_used: 1, credits_remaining: 9 });
    expect(ablation.available).toBe(9);
    for (const r of [mixed, ablation]) expect(billingDiscrepancies(await accountInStream(stack, r.accountId), { available: r.available, reserved: 0 }, [billedAnswer(r.res)])).toEqual([]);
    console.log(`provider fails some calls: a failed full package with a successful ablation billed 0 (batch billed 1 of 3 evaluations run); a failed ablation billed 1 with image_only_score and copy_lift left out`);
  }, 30_000);

  describe("with a model timeout longer than the request limit", () => {
    beforeAll(async () => {
      await stack.processes.find((p) => p.name === "scorer")!.stop();
      await stack.startReplica("scorer", { MODEL_TIMEOUT_MS: "60000", MODEL_MAX_RETRIES: "3" });
    }, 60_000);

    it("when the provider hangs: the request limit ends the wait, the hung calls are cancelled, and the scorer is free again", async () => {
      const abandonedBefore = provider.abandoned();
      const { res, ms, available, calls } = await run("hang");
      allFailed(res, available);
      for (const e of res.body.errors) expect(e.error).toMatch(/time limit/);
      // It was the request's deadline, not a model timeout, that answered.
      expect(ms).toBeGreaterThan(RANK_TIMEOUT_MS - 2_000);
      // The scorer gave up every call it had made (none is left hanging at the provider).
      expect(calls.length).toBeGreaterThan(0);
      await eventually(async () => (provider.abandoned() - abandonedBefore >= calls.length ? true : undefined), 5_000, "the hung calls to be cancelled");

      // Once the provider answers again, the next request is scored at once.
      await pause(100);
      const after = await run("ok");
      expect(after.res.status).toBe(200);
      expect(after.res.body.ranked).toHaveLength(2);
      expect(after.ms).toBeLessThan(3_000);
      expect(deadServices(stack, stack.processes.filter((p) => p.name === "scorer" && !p.isRunning()))).toEqual([]);
      console.log(`provider hangs, model timeout 60 s: 200 with 2 per-asset errors after ${ms} ms (limit ${RANK_TIMEOUT_MS} ms), ${calls.length} hung calls cancelled; the next request ranked both assets in ${after.ms} ms; nothing billed`);
    }, 30_000);
  });
});
