import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConflictError, createClient, NotFoundError, RequestFailedError, TimeoutError, UnexpectedResponseError, ValidationError, type RequestStatus, type RetryEvent } from "../src/index.ts";
import { idempotencyKeyFor } from "../src/idempotency-key.ts";
import { startScriptedServer, type Handler, type ScriptedServer, type SeenRequest } from "./support/scripted-server.ts";

// Idempotency keys, asynchronous requests and waiting for them, against a local server that
// speaks the API's wire format; each test scripts its answers in order.

let server: ScriptedServer;
let baseUrl: string;
let script: Handler[] = [];
let seen: SeenRequest[] = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": `req-${seen.length}`, ...headers }).end(JSON.stringify(body));
};
/** The connection dies before any answer: what a dropped connection looks like to the client. */
const cut: Handler = (req) => req.socket.destroy();

const REQUEST_ID = "3f2a9c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const rankResponse = {
  request_id: REQUEST_ID,
  ranked: [],
  errors: [{ asset_url: "https://example.com/a.png", asset_id: null, error: "The image could not be fetched." }],
  summary: {
    goal: "purchase-intent", asset_type: "social-feed", platform: null, audience: "Runners", assets_ranked: 0, assets_failed: 1, scoring_evaluations: 0,
    repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] },
    credits_used: 0, credits_remaining: 10,
  },
};
const pairwiseResponse = {
  request_id: REQUEST_ID,
  pairs: [],
  summary: { goal: "purchase-intent", platform: null, audience: "Runners", model: "sim:panel", panel_size: 5, pairs_requested: 0, pairs_completed: 0, pairs_failed: 0, valid_votes: 0, pairwise_evaluations: 0, credits_used: 0, credits_remaining: 10 },
};
const status = (over: Partial<RequestStatus> = {}): RequestStatus => ({
  object: "request",
  request_id: REQUEST_ID,
  operation: "rank",
  status: "running",
  created_at: "2026-11-26T10:00:00.000Z",
  finished_at: null,
  progress: { done: 0, total: 3, unit: "assets" },
  result_url: `/api/v1/requests/${REQUEST_ID}`,
  webhook: null,
  error: null,
  ...over,
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
const rankBody = { assets: [{ url: "https://example.com/a.png" }], audience: { name: "Runners" } };
const pairwiseBody = { pairs: [{ pair_id: "p", a: { id: "a", image_url: "https://example.com/a.png" }, b: { id: "b", image_url: "https://example.com/b.png" } }], audience: { name: "Runners" } };
const keysSent = () => seen.map((s) => s.headers["idempotency-key"]);

describe("idempotency keys", () => {
  it("sends one generated UUID on every retry of a call, and a new one for the next call", async () => {
    script = [json(500, { error: "oops" }), cut, json(200, rankResponse)];
    const first = await client().rank(rankBody);
    expect(first.attempts).toBe(3);
    const [key] = keysSent();
    expect(key).toMatch(UUID);
    expect(keysSent()).toEqual([key, key, key]);
    expect(first).toMatchObject({ idempotencyKey: key, replayed: false });

    script = [json(200, rankResponse)];
    const second = await client().rank(rankBody);
    expect(second.idempotencyKey).toMatch(UUID);
    expect(second.idempotencyKey).not.toBe(key);
  });

  it("sends the caller's key as given, on every retry, for rank and pairwise", async () => {
    script = [cut, json(200, rankResponse), json(502, { error: "bad gateway" }), json(200, pairwiseResponse)];
    const ranked = await client().rank(rankBody, { idempotencyKey: "order-42/rank" });
    const compared = await client().pairwise(pairwiseBody, { idempotencyKey: "order-42/pairwise" });
    expect(keysSent()).toEqual(["order-42/rank", "order-42/rank", "order-42/pairwise", "order-42/pairwise"]);
    expect(ranked.idempotencyKey).toBe("order-42/rank");
    expect(compared.idempotencyKey).toBe("order-42/pairwise");
  });

  it("sends no key when the call cannot be retried and none was given; a given one always", async () => {
    script = [json(200, rankResponse), json(200, rankResponse)];
    expect((await client({ retry: { maxRetries: 0 } }).rank(rankBody)).idempotencyKey).toBeNull();
    await client({ retry: { maxRetries: 0 } }).rank(rankBody, { idempotencyKey: "mine" });
    expect(keysSent()).toEqual([undefined, "mine"]);
  });

  it("sends no key with reads and saved audiences", async () => {
    script = [json(200, { audiences: [] }), json(200, rankResponse)];
    await client().audiences.list();
    await client().getRequest(REQUEST_ID);
    expect(keysSent()).toEqual([undefined, undefined]);
  });

  it("refuses a key the server would refuse before sending anything, as the same ValidationError", async () => {
    for (const bad of ["", "has space", "é", "x".repeat(256)]) {
      const err = await client().rank(rankBody, { idempotencyKey: bad }).catch((e: unknown) => e);
      expect(err, JSON.stringify(bad)).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ field: "Idempotency-Key", status: 0, requestId: null });
    }
    expect(seen).toEqual([]);
    expect(idempotencyKeyFor("x".repeat(255), false)).toBe("x".repeat(255));
    expect(idempotencyKeyFor(undefined, true, () => "made")).toBe("made");
  });

  it("says when an answer is a replay, with the original request's id", async () => {
    script = [json(200, rankResponse, { "idempotent-replayed": "true", "x-request-id": REQUEST_ID })];
    const result = await client().rank(rankBody, { idempotencyKey: "k1" });
    expect(result).toMatchObject({ replayed: true, requestId: REQUEST_ID, attempts: 1 });
  });

  it("turns a 422 on the key into a ValidationError naming it, and does not retry it", async () => {
    script = [json(422, { error: "Idempotency-Key was used with a different request body.", field: "Idempotency-Key" })];
    const err = await client().rank(rankBody, { idempotencyKey: "k1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ status: 422, field: "Idempotency-Key", message: "Idempotency-Key was used with a different request body." });
    expect(seen).toHaveLength(1);
  });

  it("retries a 409 (the same key still running) after exactly Retry-After, with the same key", async () => {
    const running = { error: "A request with this Idempotency-Key is still running.", request_id: REQUEST_ID };
    script = [json(409, running, { "retry-after": "1" }), json(200, rankResponse, { "idempotent-replayed": "true" })];
    const retries: RetryEvent[] = [];
    const result = await client({ onRetry: (e) => retries.push(e) }).rank(rankBody);
    expect(result).toMatchObject({ attempts: 2, replayed: true });
    expect(retries.map((r) => [r.error.constructor, r.delayMs])).toEqual([[ConflictError, 1000]]);
    expect(retries[0]!.error).toMatchObject({ status: 409, requestId: REQUEST_ID, retryAfter: 1 });
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(990);
    expect(keysSent()[1]).toBe(keysSent()[0]);
  });

  it("gives the ConflictError when retries are off, naming the running request", async () => {
    script = [json(409, { error: "Still running.", request_id: REQUEST_ID }, { "retry-after": "5", "x-request-id": "other" })];
    const err = await client({ retry: { maxRetries: 0 } }).rank(rankBody, { idempotencyKey: "k1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ status: 409, requestId: REQUEST_ID, retryAfter: 5, message: "Still running." });
  });
});

describe("getRequest", () => {
  it("gives a succeeded rank or pairwise request's result, told apart by its shape", async () => {
    script = [json(200, rankResponse, { "x-request-id": REQUEST_ID }), json(200, pairwiseResponse)];
    const ranked = await client().getRequest(REQUEST_ID);
    expect(ranked.data).toEqual({ status: "succeeded", operation: "rank", result: rankResponse });
    expect(ranked.requestId).toBe(REQUEST_ID);
    const compared = await client().getRequest(REQUEST_ID);
    expect(compared.data).toEqual({ status: "succeeded", operation: "pairwise", result: pairwiseResponse });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/requests/${REQUEST_ID}`, `GET /api/v1/requests/${REQUEST_ID}`]);
  });

  it("gives a running request's status (202, with when to look again) and a failed one's", async () => {
    const running = status({ progress: { done: 1, total: 3, unit: "assets" } });
    const failed = status({ status: "failed", finished_at: "2026-11-26T10:01:00.000Z", error: "No scoring model answered." });
    script = [json(202, running, { "retry-after": "2" }), json(200, failed)];
    const first = await client().getRequest(REQUEST_ID);
    expect(first.data).toEqual({ status: "running", request: running });
    expect(first.retryAfter).toBe(2);
    expect((await client().getRequest(REQUEST_ID)).data).toEqual({ status: "failed", request: failed });
  });

  it("turns an unknown id into NotFoundError and escapes the id in the path", async () => {
    script = [json(404, { error: "No request with this id." })];
    const err = await client().getRequest("../audiences?x=1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, message: "No request with this id." });
    expect(seen[0]!.url).toBe("/api/v1/requests/..%2Faudiences%3Fx%3D1");
  });

  it("refuses a body that is neither a status nor a result", async () => {
    script = [json(200, { hello: "world" }), json(200, status({ status: "succeeded" }))];
    await expect(client().getRequest(REQUEST_ID)).rejects.toBeInstanceOf(UnexpectedResponseError);
    await expect(client().getRequest(REQUEST_ID)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});

describe("rankAsync and pairwiseAsync", () => {
  it("POST with async: true and the webhook URL, and give the 202's status", async () => {
    const accepted = status({ webhook: { url: "https://hooks.example.com/adrank", state: "pending", attempts: 0 } });
    script = [json(202, accepted, { "retry-after": "2", location: accepted.result_url, "x-request-id": REQUEST_ID })];
    const result = await client().rankAsync(rankBody, { webhookUrl: "https://hooks.example.com/adrank", idempotencyKey: "batch-7" });
    expect(result).toMatchObject({ data: accepted, requestId: REQUEST_ID, retryAfter: 2, idempotencyKey: "batch-7", replayed: false });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/api/v1/rank" });
    expect(JSON.parse(seen[0]!.body)).toEqual({ ...rankBody, async: true, webhook_url: "https://hooks.example.com/adrank" });
    expect(keysSent()).toEqual(["batch-7"]);
  });

  it("keep a webhook_url given in the input, send none when there is none, and retry with one generated key", async () => {
    const accepted = status({ operation: "pairwise", progress: { done: 0, total: 1, unit: "pairs" } });
    script = [cut, json(202, accepted), json(202, status())];
    const compared = await client().pairwiseAsync({ ...pairwiseBody, webhook_url: "https://hooks.example.com/p" });
    expect(compared.data.operation).toBe("pairwise");
    expect(compared.attempts).toBe(2);
    expect(seen.map((s) => s.url)).toEqual(["/api/v1/pairwise", "/api/v1/pairwise"]);
    expect(JSON.parse(seen[1]!.body)).toEqual({ ...pairwiseBody, async: true, webhook_url: "https://hooks.example.com/p" });
    expect(keysSent()[0]).toMatch(UUID);
    expect(keysSent()[1]).toBe(keysSent()[0]);

    await client().rankAsync(rankBody);
    expect(JSON.parse(seen[2]!.body)).toEqual({ ...rankBody, async: true });
  });

  it("refuse an answer other than 202: the caller would wait for a request that is not running", async () => {
    script = [json(200, rankResponse)];
    await expect(client().rankAsync(rankBody)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it("are the only way to send async: true; rank and pairwise refuse it before sending", async () => {
    await expect(client().rank({ ...rankBody, async: true })).rejects.toThrow(/use rankAsync/);
    await expect(client().pairwise({ ...pairwiseBody, async: true })).rejects.toThrow(/use pairwiseAsync/);
    expect(seen).toEqual([]);
  });
});

describe("waitForResult", () => {
  const running = (done: number) => json(202, status({ progress: { done, total: 3, unit: "assets" } }));

  it("looks until the request succeeds, reporting its progress, and resolves the result", async () => {
    script = [running(0), running(1), running(3), json(200, rankResponse)];
    const progress: number[] = [];
    const result = await client().waitForResult(REQUEST_ID, { pollIntervalMs: 20, onProgress: (s) => progress.push(s.progress.done) });
    expect(result).toEqual(rankResponse);
    expect(progress).toEqual([0, 1, 3]);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(Array(4).fill(`GET /api/v1/requests/${REQUEST_ID}`));
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(19);
  });

  it("waits the server's Retry-After when it is longer than the poll interval", async () => {
    script = [json(202, status(), { "retry-after": "1" }), json(200, pairwiseResponse)];
    expect(await client().waitForResult(REQUEST_ID, { pollIntervalMs: 10 })).toEqual(pairwiseResponse);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it("retries a look that failed on the way, like any call", async () => {
    script = [running(0), json(502, { error: "bad gateway" }), json(200, rankResponse)];
    expect(await client().waitForResult(REQUEST_ID, { pollIntervalMs: 10 })).toEqual(rankResponse);
    expect(seen).toHaveLength(3);
  });

  it("rejects with RequestFailedError carrying the request's error", async () => {
    const failed = status({ status: "failed", finished_at: "2026-11-26T10:01:00.000Z", error: "No scoring model answered in time." });
    script = [running(1), json(200, failed)];
    const err = await client().waitForResult(REQUEST_ID, { pollIntervalMs: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestFailedError);
    expect(err).toMatchObject({ message: "No scoring model answered in time.", requestId: REQUEST_ID, request: failed });
  });

  it("rejects with NotFoundError for an unknown request", async () => {
    script = [json(404, { error: "No request with this id." })];
    await expect(client().waitForResult(REQUEST_ID)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("gives up after timeoutMs with a TimeoutError that says the request keeps running", async () => {
    script = Array.from({ length: 50 }, () => running(2));
    const started = performance.now();
    const err = await client().waitForResult(REQUEST_ID, { pollIntervalMs: 50, timeoutMs: 300 }).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).message).toBe(`Request ${REQUEST_ID} did not finish within 300 ms. It keeps running on the server: fetch its result later with getRequest("${REQUEST_ID}").`);
    expect(err).toMatchObject({ status: 0, requestId: REQUEST_ID, body: { progress: { done: 2 } } });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeLessThanOrEqual(8);
  });

  it("gives up on time also while a look hangs", async () => {
    // Every answer hangs: a look the previous test sent just before it gave up can reach the
    // server after this script is set and take one (seen once in CI under load).
    script = Array.from({ length: 5 }, () => () => {});
    const err = await client().waitForResult(REQUEST_ID, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ requestId: REQUEST_ID, body: null });
  });

  it("stops at once when the caller aborts, with the signal's reason", async () => {
    script = Array.from({ length: 50 }, () => running(0));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 150);
    const started = performance.now();
    await expect(client().waitForResult(REQUEST_ID, { pollIntervalMs: 60_000, signal: controller.signal })).rejects.toThrow("user cancelled");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(seen).toHaveLength(1);
  });
});
