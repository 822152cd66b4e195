import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import {
  AuthenticationError,
  BadRequestError,
  checkOutcomes,
  ConnectionError,
  createClient,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedResponseError,
  TOO_CLOSE_TO_CALL,
  ValidationError,
  type AnswerWarning,
  type MethodReceipt,
  type RankUncertainty,
  type RetryEvent,
  type WinProbability,
} from "../src/index.ts";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

// A local server speaking the API's wire format; each test scripts its answers in order.
let server: Server;
let baseUrl: string;
let script: Handler[] = [];
let seen: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }> = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": `req-${seen.length}`, ...headers }).end(JSON.stringify(body));
};

const rankResponse = {
  request_id: "7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10",
  ranked: [],
  errors: [{ asset_url: "https://example.com/a.png", asset_id: null, error: "The image could not be fetched." }],
  summary: {
    goal: "purchase-intent", asset_type: "social-feed", platform: null, audience: "Runners", assets_ranked: 0, assets_failed: 1, scoring_evaluations: 0,
    repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] },
    credits_used: 0, credits_remaining: 10,
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const next = script.shift();
      if (!next) return json(500, { error: "no scripted answer" })(req, res, body);
      next(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);
beforeEach(() => {
  script = [];
  seen = [];
});

/** A loopback port nothing listens on: taken from the OS, then let go. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const address = probe.address();
  await new Promise<void>((r) => probe.close(() => r()));
  return typeof address === "object" && address ? address.port : 0;
}

const client = (over: Partial<Parameters<typeof createClient>[0]> = {}) => createClient({ apiKey: "agk_live_test", baseUrl, retry: { baseDelayMs: 10 }, ...over });
const rankBody = { assets: [{ url: "https://example.com/a.png" }], audience: { name: "Runners" } };

describe("sdk client", () => {
  it("sends the key and JSON body, and returns the parsed body with request id and rate-limit headers", async () => {
    script = [json(200, rankResponse, { "x-ratelimit-remaining": "59" })];
    const result = await client().rank(rankBody);
    expect(result).toMatchObject({ requestId: "req-1", rateLimitRemaining: 59, attempts: 1 });
    expect(result.data.summary.credits_remaining).toBe(10);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/api/v1/rank" });
    expect(seen[0]!.headers.authorization).toBe("Bearer agk_live_test");
    expect(JSON.parse(seen[0]!.body)).toEqual(rankBody);
  });

  it.each([
    [400, BadRequestError, { error: "The body is not valid JSON." }],
    [401, AuthenticationError, { error: "The API key is missing or invalid." }],
    [402, InsufficientCreditsError, { error: "This batch needs up to 2 credits; 1 is available." }],
    [404, NotFoundError, { error: "No audience with id aud_x." }],
    [422, ValidationError, { error: "assets[0].url must be an https URL.", field: "assets[0].url" }],
    [503, ServiceUnavailableError, { error: "No voter is available." }],
    [500, ServerError, { error: "Something failed on our side." }],
  ] as const)("maps %i to its error class with the server's sentence and request id", async (status, Class, body) => {
    // 5xx are retried: give every attempt the same answer.
    script = [json(status, body), json(status, body), json(status, body)];
    const err = await client().rank(rankBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Class);
    expect(err).toMatchObject({ status, message: body.error, requestId: expect.stringMatching(/^req-/) });
    if (err instanceof ValidationError) expect(err.field).toBe("assets[0].url");
  });

  it("never retries a 4xx other than 429", async () => {
    for (const status of [400, 401, 402, 404, 422]) {
      script = [json(status, { error: "no" }), json(200, rankResponse)];
      seen = [];
      await expect(client().rank(rankBody)).rejects.toMatchObject({ status });
      expect(seen, `status ${status}`).toHaveLength(1);
    }
  });

  it("waits exactly Retry-After on 429, then succeeds", async () => {
    script = [json(429, { error: "Rate limit reached.", retryAfter: 1, resetAt: 1_800_000_000 }, { "retry-after": "1" }), json(200, rankResponse)];
    const retries: RetryEvent[] = [];
    const started = performance.now();
    const result = await client({ onRetry: (e) => retries.push(e) }).rank(rankBody);
    const elapsed = performance.now() - started;
    expect(result.attempts).toBe(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.delayMs).toBe(1000);
    expect(retries[0]!.error).toBeInstanceOf(RateLimitError);
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(1_800);
  });

  it("surfaces a 429 with retryAfter and resetAt when retries are off or the wait is too long", async () => {
    script = [json(429, { error: "Rate limit reached.", retryAfter: 42, resetAt: 1_800_000_042 }, { "retry-after": "42" })];
    const err = await client({ retry: { maxRetries: 0 } }).rank(rankBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ retryAfter: 42, resetAt: 1_800_000_042 });
    script = [json(429, { error: "Rate limit reached.", retryAfter: 42, resetAt: 1 }, { "retry-after": "42" })];
    seen = [];
    await expect(client({ retry: { maxDelayMs: 10_000 } }).rank(rankBody)).rejects.toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(1);
  });

  it("retries 5xx with growing backoff and gives the last error when retries run out", async () => {
    script = [json(502, { error: "bad gateway" }), json(500, { error: "oops" }), json(200, rankResponse)];
    const delays: number[] = [];
    const ok = await client({ retry: { baseDelayMs: 40, maxRetries: 2 }, onRetry: (e) => delays.push(e.delayMs) }).rank(rankBody);
    expect(ok.attempts).toBe(3);
    expect(delays[0]).toBeGreaterThanOrEqual(20);
    expect(delays[0]).toBeLessThanOrEqual(40);
    expect(delays[1]).toBeGreaterThanOrEqual(40);
    expect(delays[1]).toBeLessThanOrEqual(80);

    script = [json(500, { error: "first" }), json(500, { error: "second" }), json(500, { error: "third" })];
    await expect(client({ retry: { maxRetries: 2, baseDelayMs: 10 } }).rank(rankBody)).rejects.toMatchObject({ message: "third", status: 500 });
    expect(seen).toHaveLength(6);
  });

  it("takes the request id from a 5xx body when no header carries it", async () => {
    script = [(_req, res) => res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "Something failed on our side.", request_id: "body-id" }))];
    await expect(client({ retry: { maxRetries: 0 } }).rank(rankBody)).rejects.toMatchObject({ status: 500, requestId: "body-id" });
  });

  it("retries lost connections with backoff, then gives ConnectionError", async () => {
    const retries: RetryEvent[] = [];
    const port = await closedPort();
    const refused = createClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 2, baseDelayMs: 10 }, onRetry: (e) => retries.push(e) });
    const err = await refused.audiences.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).message).toBe(`Could not reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(retries.map((r) => r.error.constructor)).toEqual([ConnectionError, ConnectionError]);
  });

  it("treats a connection cut or a stall in the middle of the body like one before it, and retries", async () => {
    const headThenCut: Handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
      res.write('{"audiences": [');
      setTimeout(() => res.destroy(), 20);
    };
    const headThenStall: Handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"audiences": [');
    };
    script = [headThenCut, headThenStall, json(200, { audiences: [] })];
    const retries: RetryEvent[] = [];
    const result = await client({ timeoutMs: 300, onRetry: (e) => retries.push(e) }).audiences.list();
    expect(result.attempts).toBe(3);
    expect(retries.map((r) => r.error.constructor)).toEqual([ConnectionError, TimeoutError]);
  });

  it("keeps within the caller's budget: no retry whose wait would outlast it, and a shorter last attempt", async () => {
    script = [json(429, { error: "Rate limit reached.", retryAfter: 2, resetAt: 1 }, { "retry-after": "2" }), json(200, rankResponse)];
    const started = performance.now();
    await expect(client({ retry: { maxElapsedMs: 1_500 } }).rank(rankBody)).rejects.toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(500);

    // The server stays silent: the attempt ends when the budget does, not at the 10 s limit.
    script = [() => {}];
    seen = [];
    const stalled = performance.now();
    const err = await client({ timeoutMs: 10_000 }).audiences.list({ retry: { maxElapsedMs: 300 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(performance.now() - stalled).toBeLessThan(1_000);
    expect(seen).toHaveLength(1);
  });

  it("turns a refused connection into ConnectionError and a silent server into TimeoutError", async () => {
    const refused = createClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${await closedPort()}`, retry: { maxRetries: 0 } });
    await expect(refused.audiences.list()).rejects.toBeInstanceOf(ConnectionError);
    script = [() => {}];
    const err = await client({ timeoutMs: 200, retry: { maxRetries: 0 } }).audiences.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ status: 0, requestId: null });
  });

  it("stops at once when the caller aborts, also while waiting to retry", async () => {
    script = [json(429, { error: "wait" }, { "retry-after": "30" })];
    const controller = new AbortController();
    const pending = client({ onRetry: () => controller.abort(new Error("user cancelled")) }).rank(rankBody, { signal: controller.signal });
    await expect(pending).rejects.toThrow("user cancelled");
    expect(seen).toHaveLength(1);
  });

  it("stops at once when the caller aborts a request in flight, without retrying it", async () => {
    script = [() => {}];
    const controller = new AbortController();
    const retries: RetryEvent[] = [];
    setTimeout(() => controller.abort(new Error("user cancelled")), 100);
    const started = performance.now();
    await expect(client({ onRetry: (e) => retries.push(e) }).audiences.list({ signal: controller.signal })).rejects.toThrow("user cancelled");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(retries).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it("refuses a 200 whose body breaks the contract instead of handing it on", async () => {
    script = [json(200, { ranked: "not a list" })];
    await expect(client().rank(rankBody)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it("hands on how sure an answer is (issue 34), typed, and takes an older server's answer without it", async () => {
    const asset = (rank: number, id: string, p: number | null, close: boolean) => ({
      rank, asset_url: `https://example.com/${id}`, asset_id: id, score: 4 - rank / 10, score_before_refine: 4 - rank / 10, score_layer: "image-only", asset_type: "social-feed", copy_context_included: false,
      rationale: "", product_read: "", confidence: "medium", panel_outcome: null,
      confidence_details: { entropy: 0.5, top_margin: 0.1, sample_std_dev: 0.1, repetition_count: 3, generator_sample_count: 6 },
      details: { probabilities: [0.2, 0.2, 0.2, 0.2, 0.2], similarities: [0.5, 0.5, 0.5, 0.5, 0.5], repetitionCount: 3, generatorSampleCount: 6, repetitionScores: [3.9, 4, 4.1], repetitionScoreRange: 0.2 },
      p_above_next: p, too_close_to_call: close,
    });
    const uncertainty: RankUncertainty = { repetition_noise_sd: 0.1, degrees_of_freedom: 4, adjacent_pairs: 1, too_close_to_call: 1 };
    const warnings: AnswerWarning[] = [{ code: "a_code_from_the_future", message: "Unknown codes still arrive, with their message." }];
    const method: MethodReceipt = { version: "v1", prompt_templates: ["9f2c4e1a7b3d5c60"], reference_sets: [], reference_similarity_limit: null, embedder: null, generators: [], voters: [{ model: "sim:sim-voter", versions: [], temperature: null, thinking: null }] };
    script = [json(200, { ...rankResponse, ranked: [asset(1, "a.png", 0.55, true), asset(2, "b.png", null, false)], errors: [], summary: { ...rankResponse.summary, assets_ranked: 2, assets_failed: 0, uncertainty, warnings, method } })];
    const { data } = await client().rank(rankBody);
    const [first, last] = data.ranked;
    expect(first!.p_above_next).toBeGreaterThan(TOO_CLOSE_TO_CALL.low);
    expect(first!.p_above_next).toBeLessThan(TOO_CLOSE_TO_CALL.high);
    expect([first!.too_close_to_call, last!.p_above_next]).toEqual([true, null]);
    expect(data.summary).toMatchObject({ uncertainty, warnings, method });

    script = [json(200, rankResponse)];
    const older = (await client().rank(rankBody)).data;
    expect([older.summary.uncertainty, older.summary.warnings, older.summary.method]).toEqual([undefined, undefined, undefined]);

    const wp: WinProbability = { asset_id: "a.png", value: 0.714, ci_low: 0.36, ci_high: 0.96, p_better: 0.89 };
    const pair = { pairId: "p1", aId: "a.png", bId: "b.png", status: "done", votes: [], winnerId: "a.png", votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.6, win_probability: wp };
    const pairwiseSummary = { goal: "purchase-intent", platform: null, audience: "Runners", model: "sim:sim-voter", panel_size: 5, pairs_requested: 1, pairs_completed: 1, pairs_failed: 0, valid_votes: 5, pairwise_evaluations: 1, credits_used: 1, credits_remaining: 9, warnings: [], method };
    script = [json(200, { request_id: rankResponse.request_id, pairs: [pair], summary: pairwiseSummary })];
    const compared = (await client().pairwise({ pairs: [{ pair_id: "p1", a: { id: "a.png", image_url: "https://example.com/a.png" }, b: { id: "b.png", image_url: "https://example.com/b.png" } }], audience: { name: "Runners" } })).data;
    expect(compared.pairs[0]!.win_probability).toEqual(wp);
    expect(compared.summary.method?.voters[0]?.model).toBe("sim:sim-voter");
  });

  it("lists and creates saved audiences", async () => {
    const saved = { id: "aud_1", name: "Runners", description: null, demographics: { ageRange: "25-34" }, created_at: "2026-11-23T10:00:00.000Z" };
    script = [json(201, saved), json(200, { audiences: [saved] })];
    const created = await client().audiences.create({ name: "Runners", demographics: { ageRange: "25-34" } });
    expect(created.data.id).toBe("aud_1");
    expect((await client().audiences.list()).data.audiences).toHaveLength(1);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/audiences", "GET /api/v1/audiences"]);
  });

  describe("outcomes and calibration", () => {
    const REQUEST = "5d0f6c2e-8a4b-4f1e-b3c7-92e1a6d40b58";
    const batch = { outcomes: [{ request_id: REQUEST, asset_id: "sunrise-run.png", metric: "ctr", value: 0.0184, impressions: 48_210 }] };
    const recorded = { created: 1, updated: 0, unchanged: 0, outcomes: [{ ...batch.outcomes[0], goal: "click-through-rate", score: 3.84, score_before_refine: 3.84, simulated: false, change: "created", recorded_at: "2026-11-27T10:00:00.000Z" }] };
    const group = { goal: null, n_outcomes: 2, n_requests: 1, n_pairs: 1, n_simulated: 0, impressions: 100_087, enough_data: false, spearman_rho: null, kendall_tau_b: null, pairwise_agreement: null, pairwise_agreement_raw: null };
    const calibration = { min_outcomes: 10, resamples: 1000, metrics: [{ metric: "ctr", pooled: group, goals: [{ ...group, goal: "click-through-rate" }] }] };

    it("records outcomes: POSTs the batch as sent, without an Idempotency-Key, and parses the answer", async () => {
      script = [json(200, recorded)];
      const { data, requestId, idempotencyKey } = await client().outcomes.record(batch);
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/outcomes"]);
      expect(JSON.parse(seen[0]!.body)).toEqual(batch);
      expect(seen[0]!.headers["idempotency-key"]).toBeUndefined();
      expect(idempotencyKey).toBeNull();
      expect(requestId).toBe("req-1");
      expect(data.outcomes[0]).toMatchObject({ change: "created", score: 3.84, impressions: 48_210 });
      expect(data.created).toBe(1);
    });

    it("retries a recording after a 5xx, as recording the same outcome twice changes nothing", async () => {
      script = [json(503, { error: "Service Unavailable" }), json(200, { ...recorded, created: 0, unchanged: 1, outcomes: [{ ...recorded.outcomes[0], change: "unchanged" }] })];
      const { data, attempts } = await client().outcomes.record(batch);
      expect(attempts).toBe(2);
      expect(seen.map((s) => s.body)).toEqual([JSON.stringify(batch), JSON.stringify(batch)]);
      expect(data.unchanged).toBe(1);
    });

    it("turns an unknown request_id into NotFoundError and a refused outcome into ValidationError naming it", async () => {
      const notFound = { error: `No request with id "${REQUEST}" exists for this account. Results are kept for 30 days.`, field: "outcomes[0].request_id" };
      script = [json(404, notFound), json(422, { error: "outcomes[1] repeats outcomes[0] (the same request_id, asset_id and metric); send each outcome once.", field: "outcomes[1].metric" })];
      const missing = await client().outcomes.record(batch).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(missing).toMatchObject({ status: 404, message: notFound.error, requestId: "req-1", field: "outcomes[0].request_id" });
      const refused = await client().outcomes.record({ outcomes: [batch.outcomes[0]!, batch.outcomes[0]!] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect(refused).toMatchObject({ status: 422, field: "outcomes[1].metric" });
      // Neither is retried: both are the caller's to fix.
      expect(seen).toHaveLength(2);
    });

    it("gets calibration, with only the query parameters given, encoded", async () => {
      script = [json(200, calibration), json(200, calibration), json(200, { ...calibration, metrics: [] }), json(200, { ...calibration, metrics: [] })];
      const { data } = await client().calibration.get();
      expect(data.metrics[0]!.goals[0]).toMatchObject({ goal: "click-through-rate", enough_data: false, spearman_rho: null });
      await client().calibration.get({ metric: "ctr", goal: "click-through-rate" });
      await client().calibration.get({ goal: "open-rate" });
      await client().calibration.get({ metric: "a b&c=d" });
      expect(seen.map((s) => s.url)).toEqual(["/api/v1/calibration", "/api/v1/calibration?metric=ctr&goal=click-through-rate", "/api/v1/calibration?goal=open-rate", "/api/v1/calibration?metric=a+b%26c%3Dd"]);
      expect(seen.every((s) => s.method === "GET" && s.body === "")).toBe(true);
    });

    it("turns a calibration 422 into ValidationError, and an off-contract 200 into UnexpectedResponseError", async () => {
      script = [json(422, { error: "goal must be one of: purchase-intent, click-through-rate.", field: "goal" }), json(200, { min_outcomes: 10, resamples: 1000, metrics: [{ metric: "ctr" }] })];
      await expect(client().calibration.get({ goal: "clicks" as never })).rejects.toMatchObject({ name: "ValidationError", field: "goal" });
      await expect(client().calibration.get()).rejects.toBeInstanceOf(UnexpectedResponseError);
    });

    it("checks a batch locally with the API's own sentence and field", () => {
      expect(checkOutcomes(batch)).toEqual({ ok: true, value: batch });
      expect(checkOutcomes({ outcomes: [{ ...batch.outcomes[0], value: "1.8%" }] })).toEqual({ ok: false, error: "outcomes[0].value must be a number.", field: "outcomes[0].value" });
      expect(checkOutcomes({ outcomes: [] })).toEqual({ ok: false, error: "outcomes must have at least 1 item.", field: "outcomes" });
    });
  });
});

describe("createClient keeps the key off plain http:// to other machines", () => {
  it.each(["http://127.0.0.1:8080", "http://127.1:8080", "http://0x7f.0.0.1", "http://localhost", "http://api.localhost:8080", "http://[::1]:8080", "https://api.example.com", "https://10.0.0.5"])("accepts %s", (baseUrl) => {
    expect(() => createClient({ apiKey: "k", baseUrl })).not.toThrow();
  });
  it.each(["http://api.example.com", "http://10.0.0.5", "http://128.0.0.1", "http://[::2]", "http://127.0.0.1.nip.io", "http://localhost.example.com"])("refuses %s unless allowInsecureHttp", (baseUrl) => {
    expect(() => createClient({ apiKey: "k", baseUrl })).toThrow(/clear text/);
    expect(() => createClient({ apiKey: "k", baseUrl, allowInsecureHttp: true })).not.toThrow();
  });
});
