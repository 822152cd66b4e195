import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RankAudiencesResponse as RankAudiencesResponseSchema } from "@adrank/contracts";
import { audienceNameKey, checkAudiences, createClient, UnexpectedResponseError, ValidationError, type RankAudiencesInput, type RankAudiencesResponse, type RequestStatus } from "../src/index.ts";
import { startScriptedServer, type Handler, type ScriptedServer, type SeenRequest } from "./support/scripted-server.ts";

// rankAcrossAudiences and its asynchronous form against a local server that speaks the API's
// wire format; each test scripts its answers in order and reads back what was sent.

let server: ScriptedServer;
let baseUrl: string;
let script: Handler[] = [];
let seen: SeenRequest[] = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": `req-${seen.length}`, ...headers }).end(JSON.stringify(body));
};

const REQUEST_ID = "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const asset = (rank: number, id: string, score: number) => ({
  rank, asset_url: `https://cdn.example.com/${id}`, asset_id: id, score, score_before_refine: score, score_layer: "image-only", asset_type: "Social Media Post", copy_context_included: false,
  rationale: "", product_read: "", confidence: "medium", panel_outcome: null,
  confidence_details: { entropy: 0.5, top_margin: 0.1, sample_std_dev: 0.1, repetition_count: 3, generator_sample_count: 6 },
  details: { probabilities: [0.2, 0.2, 0.2, 0.2, 0.2], similarities: [0.5, 0.5, 0.5, 0.5, 0.5], repetitionCount: 3, generatorSampleCount: 6, repetitionScores: [score, score, score], repetitionScoreRange: 0 },
  p_above_next: rank === 1 ? 0.99 : null, too_close_to_call: false,
});
const MODELS = { generators: ["sim:sim-gen-a"], embedder: "sim:sim-embed", voters: [], simulated: true };
const summary = (audience: string) => ({
  goal: "purchase-intent", asset_type: "Social Media Post", platform: null, audience, assets_ranked: 2, assets_failed: 0, scoring_evaluations: 2,
  repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: true, pairs_evaluated: 0, results: [] }, credits_used: 2, credits_remaining: 96, models: MODELS, warnings: [],
});
const ref = (i: number) => ({ asset_index: i, asset_id: ["hero.png", "alt.png"][i]!, asset_url: `https://cdn.example.com/${["hero.png", "alt.png"][i]!}` });
// Runners prefer hero.png, Commuters alt.png, each beyond noise: one reversal.
const response = {
  request_id: REQUEST_ID,
  by_audience: [
    { audience: "Runners", audience_id: null, ranked: [asset(1, "hero.png", 4.2), asset(2, "alt.png", 3.1)], errors: [], summary: summary("Runners") },
    { audience: "Commuters", audience_id: "aud_commuters", ranked: [asset(1, "alt.png", 3.9), asset(2, "hero.png", 2.7)], errors: [], summary: summary("Commuters") },
  ],
  comparison: [
    { ...ref(0), scores: [{ audience: "Runners", score: 4.2, score_before_refine: 4.2, rank: 1 }, { audience: "Commuters", score: 2.7, score_before_refine: 2.7, rank: 2 }], spread: 1.5, best_audience: "Runners", worst_audience: "Commuters" },
    { ...ref(1), scores: [{ audience: "Runners", score: 3.1, score_before_refine: 3.1, rank: 2 }, { audience: "Commuters", score: 3.9, score_before_refine: 3.9, rank: 1 }], spread: 0.8, best_audience: "Commuters", worst_audience: "Runners" },
  ],
  reversals: [
    {
      asset_a: ref(0), asset_b: ref(1),
      prefers_a: { audience: "Runners", score_a: 4.2, score_b: 3.1, gap: 1.1, p_order: 0.999 },
      prefers_b: { audience: "Commuters", score_a: 2.7, score_b: 3.9, gap: 1.2, p_order: 0.999 },
      swing: 2.3,
      a_key_from_a_later_version: true,
    },
  ],
  audience_sensitivity: [{ audience_a: "Runners", audience_b: "Commuters", assets_compared: 2, rank_correlation: -1, largest_score_change: 1.5, persona_made_no_difference: false }],
  summary: {
    goal: "purchase-intent", asset_type: "Social Media Post", platform: null, audiences: ["Runners", "Commuters"], assets_ranked: 4, assets_failed: 0, scoring_evaluations: 4,
    repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pairs_refined: 0, credits_used: 4, credits_remaining: 96, models: MODELS, warnings: [],
  },
};
const status = (over: Partial<RequestStatus> = {}): RequestStatus => ({
  object: "request", request_id: REQUEST_ID, operation: "rank_audiences", status: "running", created_at: "2026-12-01T10:00:00.000Z", finished_at: null,
  progress: { done: 0, total: 4, unit: "assets" }, result_url: `/api/v1/requests/${REQUEST_ID}`, webhook: null, error: null, ...over,
});

beforeAll(async () => {
  server = await startScriptedServer({ next: () => script.shift(), record: (request) => seen.push(request), unscripted: json(500, { error: "no scripted answer" }) });
  baseUrl = server.baseUrl;
});
afterAll(() => server.close());
beforeEach(() => {
  script = [];
  seen = [];
});

const client = (over: Partial<Parameters<typeof createClient>[0]> = {}) => createClient({ apiKey: "agk_live_test", baseUrl, retry: { baseDelayMs: 10 }, ...over });
const request: RankAudiencesInput = {
  assets: [{ url: "https://cdn.example.com/hero.png", id: "hero.png" }, { url: "https://cdn.example.com/alt.png", id: "alt.png" }],
  audiences: [{ name: "Runners", demographics: { ageRange: "25-34" } }, { audience_id: "aud_commuters" }],
  goal: "purchase-intent",
};

describe("rankAcrossAudiences", () => {
  it("is a valid answer of the contract, the one the tests below send", () => {
    expect(RankAudiencesResponseSchema.safeParse(response).success).toBe(true);
  });

  it("POSTs the body as given to /api/v1/rank/audiences with a generated Idempotency-Key, and parses the answer", async () => {
    script = [json(200, response, { "x-ratelimit-remaining": "36" })];
    const result = await client().rankAcrossAudiences(request);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/rank/audiences"]);
    expect(JSON.parse(seen[0]!.body)).toEqual(request);
    expect(seen[0]!.headers.authorization).toBe("Bearer agk_live_test");
    expect(seen[0]!.headers["idempotency-key"]).toMatch(UUID);
    expect(result).toMatchObject({ requestId: "req-1", rateLimitRemaining: 36, attempts: 1, replayed: false, idempotencyKey: seen[0]!.headers["idempotency-key"] });
    const data: RankAudiencesResponse = result.data;
    expect(data.by_audience.map((a) => [a.audience, a.ranked[0]!.asset_id])).toEqual([["Runners", "hero.png"], ["Commuters", "alt.png"]]);
    expect(data.reversals[0]).toMatchObject({ prefers_a: { audience: "Runners" }, prefers_b: { audience: "Commuters" }, swing: 2.3 });
    // Keys a later server adds are kept, not stripped.
    expect(data.reversals[0]).toHaveProperty("a_key_from_a_later_version", true);
    expect(data.audience_sensitivity[0]!.rank_correlation).toBe(-1);
  });

  it("retries a lost answer with the same key, the caller's when given, so the ranking is never run twice", async () => {
    script = [json(502, { error: "bad gateway" }), json(200, response, { "idempotent-replayed": "true" })];
    const result = await client().rankAcrossAudiences(request, { idempotencyKey: "campaign-7/audiences" });
    expect(seen.map((s) => s.headers["idempotency-key"])).toEqual(["campaign-7/audiences", "campaign-7/audiences"]);
    expect(seen[0]!.body).toBe(seen[1]!.body);
    expect(result).toMatchObject({ attempts: 2, replayed: true, idempotencyKey: "campaign-7/audiences" });
  });

  it("turns a 422 into a ValidationError naming the audience, and does not retry it", async () => {
    const refusal = { error: "audiences[1].name must be unique among the request's audiences (compared without regard to case or surrounding spaces).", field: "audiences[1].name" };
    script = [json(422, refusal)];
    const err = await client().rankAcrossAudiences({ ...request, audiences: [{ name: "Runners" }, { name: "runners " }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ status: 422, message: refusal.error, field: "audiences[1].name", requestId: "req-1" });
    expect(seen).toHaveLength(1);
  });

  it("refuses a 200 that breaks the contract, and async: true before sending", async () => {
    script = [json(200, { ...response, by_audience: "not a list" })];
    await expect(client().rankAcrossAudiences(request)).rejects.toBeInstanceOf(UnexpectedResponseError);
    await expect(client().rankAcrossAudiences({ ...request, async: true })).rejects.toThrow(/use rankAcrossAudiencesAsync/);
    expect(seen).toHaveLength(1);
  });
});

describe("rankAcrossAudiencesAsync, getRequest and waitForResult", () => {
  it("POSTs with async: true and the webhook URL, and gives the 202's status", async () => {
    script = [json(202, status(), { location: `/api/v1/requests/${REQUEST_ID}`, "retry-after": "2" })];
    const { data, retryAfter, idempotencyKey } = await client().rankAcrossAudiencesAsync(request, { webhookUrl: "https://hooks.example.com/adrank" });
    expect(seen[0]!.url).toBe("/api/v1/rank/audiences");
    expect(JSON.parse(seen[0]!.body)).toEqual({ ...request, async: true, webhook_url: "https://hooks.example.com/adrank" });
    expect(seen[0]!.headers["idempotency-key"]).toBe(idempotencyKey);
    expect(data).toEqual(status());
    expect(retryAfter).toBe(2);
  });

  it("refuses an answer other than 202: nothing would be running to wait for", async () => {
    script = [json(200, response)];
    await expect(client().rankAcrossAudiencesAsync(request)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it("tells a finished rank-audiences request by its by_audience, and waits for one", async () => {
    script = [json(200, response)];
    const { data } = await client().getRequest(REQUEST_ID);
    expect(data).toEqual({ status: "succeeded", operation: "rank_audiences", result: response });

    script = [json(202, status({ progress: { done: 1, total: 4, unit: "assets" } })), json(202, status({ progress: { done: 3, total: 4, unit: "assets" } })), json(200, response)];
    const progress: number[] = [];
    const result = await client().waitForResult(REQUEST_ID, { pollIntervalMs: 10, onProgress: (s) => progress.push(s.progress.done) });
    expect(progress).toEqual([1, 3]);
    expect("by_audience" in result && result.by_audience.length).toBe(2);

    script = [json(200, { ...response, comparison: [{ asset_index: -1 }] })];
    await expect(client().getRequest(REQUEST_ID)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});

describe("checkAudiences", () => {
  it("accepts what the API accepts and refuses what it refuses, with its sentence and field", () => {
    expect(checkAudiences([{ name: "Runners" }, { audience_id: "aud_1" }])).toEqual({ ok: true, value: [{ name: "Runners" }, { audience_id: "aud_1" }] });
    expect(checkAudiences([{ name: "Runners" }, { name: " runners" }])).toEqual({
      ok: false,
      error: "audiences[1].name must be unique among the request's audiences (compared without regard to case or surrounding spaces).",
      field: "audiences[1].name",
    });
    expect(checkAudiences([{ name: "Runners" }])).toEqual({ ok: false, error: "audiences must have at least 2 items.", field: "audiences" });
    expect(checkAudiences([{ name: "A" }, { name: "B", demographics: { ageRange: "ninety" } }])).toMatchObject({ ok: false, field: "audiences[1].demographics.ageRange" });
    expect(checkAudiences(["A", "B", "C", "D", "E", "F"].map((name) => ({ name })))).toMatchObject({ ok: false, error: "audiences must have at most 5 items." });
    expect(audienceNameKey("  Runners ")).toBe(audienceNameKey("runners"));
  });
});
