import { afterEach, describe, expect, it } from "vitest";
import { createGeminiEmbedder, createGeminiGenerator, type GeminiOptions } from "../src/adapters/gemini.ts";
import { createCallPolicy, isModelError, type ModelError } from "../src/index.ts";
import { describeAdapterContract, type Tokens } from "./support/adapter-contract.ts";
import { geminiCheck, geminiFaults, startStrictGemini } from "./support/strict/gemini.ts";
import type { StrictFake, StrictFakeOptions } from "./support/strict/strict-fake.ts";

type Part = { text?: string; thought?: boolean; inlineData?: { mimeType: string; data: string } };
type GenerationConfig = { maxOutputTokens?: number; temperature?: number; thinkingConfig?: { thinkingBudget?: number; thinkingLevel?: string; includeThoughts?: boolean } };
type GenerateBody = { contents: Array<{ role: string; parts: Part[] }>; systemInstruction?: { parts: Part[] }; generationConfig?: GenerationConfig };

const MODEL = "gemini-2.5-flash";
const EMBED_MODEL = "gemini-embedding-001";
const KEY = "AIza-test-0123456789";

/** A response as Gemini reports one: candidatesTokenCount leaves the thoughts out. */
const response = (parts: Part[], finishReason: string, tokens: Tokens) => ({
  candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }],
  usageMetadata: { promptTokenCount: tokens.input, candidatesTokenCount: tokens.output, thoughtsTokenCount: tokens.reasoning, totalTokenCount: tokens.input + tokens.output + tokens.reasoning },
  modelVersion: MODEL,
});
const textParts = (text: string): Part[] => (text ? [{ text }] : []);
const generationConfigOf = (body: unknown) => (body as GenerateBody).generationConfig!;

const statusName: Record<number, string> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };

describeAdapterContract({
  provider: "gemini",
  model: MODEL,
  apiKey: KEY,
  // v1beta: the version that serves previews, -latest aliases and thinkingLevel.
  generatePath: `/v1beta/models/${MODEL}:generateContent`,
  credentialOf: (h) => h["x-goog-api-key"] as string | undefined,
  // Gemini carries the model in the path, asserted there.
  modelOf: () => undefined,
  imagesOf: (b) =>
    (b as GenerateBody).contents[0]!.parts.flatMap((p) => (p.inlineData ? [{ mime: p.inlineData.mimeType, data: p.inlineData.data }] : [])),
  textsOf: (b) => ({ system: (b as GenerateBody).systemInstruction!.parts.map((p) => p.text).join(""), user: (b as GenerateBody).contents[0]!.parts.at(-1)!.text! }),
  okGenerate: (text) => ({
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 700, candidatesTokenCount: 30, totalTokenCount: 730 },
    modelVersion: MODEL,
  }),
  errorBody: (status) => ({ error: { code: status, message: `upstream said ${status}`, status: statusName[status] ?? "UNKNOWN" } }),
  outputLimitOf: (b) => generationConfigOf(b).maxOutputTokens!,
  answers: {
    ok: (text, tokens) => response(textParts(text), "STOP", tokens),
    empty: (tokens) => response([], "STOP", tokens),
    truncated: (text, tokens) => response(textParts(text), "MAX_TOKENS", tokens),
    refusal: () => ({ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 700, totalTokenCount: 700 }, modelVersion: MODEL }),
    stops: { empty: "finish reason STOP", truncated: "finish reason MAX_TOKENS" },
    refusalReason: "block reason SAFETY",
  },
  makeGenerator: (url, policy, options) => createGeminiGenerator({ ...options, model: MODEL, apiKey: KEY, baseURL: url, policy }),
  check: geminiCheck(KEY),
  embedding: {
    path: `/v1beta/models/${EMBED_MODEL}:batchEmbedContents`,
    inputsOf: (b) =>
      (b as { requests: Array<{ model: string; taskType?: string; content: { parts: Part[] } }> }).requests.map((r) => {
        expect(r.model).toBe(`models/${EMBED_MODEL}`);
        expect(r.taskType).toBe("SEMANTIC_SIMILARITY");
        return r.content.parts.map((p) => p.text).join("");
      }),
    ok: (vectors) => ({ embeddings: vectors.map((values) => ({ values })) }),
    makeEmbedder: (url, policy) => createGeminiEmbedder({ model: EMBED_MODEL, apiKey: KEY, baseURL: url, policy }),
  },
});

async function failureOf(promise: Promise<unknown>): Promise<ModelError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isModelError(err)) throw new Error(`expected a ModelError, got ${String(err)}`);
  return err;
}

const request = { system: "You are Dana, a careful shopper.", user: "Would you buy this?", images: [] };
const quickPolicy = (delays: number[] = []) => createCallPolicy({ timeoutMs: 5_000, maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, sleep: async (ms) => void delays.push(ms) });

describe("gemini against the strict Gemini API fake", () => {
  let fake: StrictFake | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const start = async (reply?: StrictFakeOptions["reply"]) => {
    fake = await startStrictGemini({ apiKey: KEY, respond: (call) => `answer from ${call.model}`, ...(reply ? { reply } : {}) });
    return fake;
  };
  const sentConfig = async (options: Partial<GeminiOptions>, req: { maxOutputTokens?: number; temperature?: number } = {}) => {
    const srv = await start();
    const gen = createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url, ...options });
    await gen.generate({ ...request, ...req });
    expect(srv.refusals).toEqual([]);
    return { gen, config: generationConfigOf(srv.requests[0]!.body) };
  };

  // Every listed family, with the ids people configure: each must answer on its first call.
  const FAMILIES = [
    "gemini-2.0-flash", "gemini-2.0-flash-001", "gemini-2.0-flash-lite", "gemini-2.5-flash", "gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash-lite",
    "gemini-2.5-pro", "gemini-3-pro-preview", "gemini-3-flash-preview", "gemini-flash-latest", "gemini-pro-latest",
  ];
  for (const model of FAMILIES) {
    for (const temperature of [0.5, 1.0]) {
      for (const thinkingBudget of [512, 0]) {
        it(`${model} answers at temperature ${temperature} with thinking budget ${thinkingBudget}, with no refusal`, async () => {
          const srv = await start();
          const gen = createGeminiGenerator({ model, apiKey: KEY, baseURL: srv.url, temperature, thinkingBudget, policy: quickPolicy() });
          const result = await gen.generate(request);
          expect(srv.refusals.map((r) => r.rule)).toEqual([]);
          expect(result.text).toBe(`answer from ${model}`);
          expect(srv.requests).toHaveLength(1);
        });
      }
    }
  }

  it("the fake is not permissive: it refuses a thinkingConfig for gemini-2.0-flash as the API does", async () => {
    const srv = await start();
    const res = await fetch(`${srv.url}/v1beta/models/gemini-2.0-flash:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": KEY },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }], generationConfig: { thinkingConfig: { thinkingBudget: 512 } } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe("INVALID_ARGUMENT");
    expect(srv.refusals).toHaveLength(1);
    expect(srv.refusals[0]!.rule).toMatch(/gemini-2.0-flash does not think/);
    srv.refusals.length = 0;
  });

  it("the fake refuses budget 0 on 2.5 Pro, thinkingLevel on 2.5, a -latest alias on v1 and a wrong key, each as the API does", async () => {
    const srv = await start();
    const call = (path: string, body: unknown, key = KEY) => fetch(`${srv.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-goog-api-key": key }, body: JSON.stringify(body) });
    const contents = [{ role: "user", parts: [{ text: "hi" }] }];
    expect((await call("/v1beta/models/gemini-2.5-pro:generateContent", { contents, generationConfig: { thinkingConfig: { thinkingBudget: 0 } } })).status).toBe(400);
    expect((await call("/v1beta/models/gemini-2.5-flash:generateContent", { contents, generationConfig: { thinkingConfig: { thinkingLevel: "LOW" } } })).status).toBe(400);
    expect((await call("/v1/models/gemini-flash-latest:generateContent", { contents })).status).toBe(404);
    const badKey = await call("/v1beta/models/gemini-2.5-flash:generateContent", { contents }, "AIza-wrong");
    expect(badKey.status).toBe(400);
    expect(JSON.stringify(await badKey.json())).toContain("API_KEY_INVALID");
    expect((await call("/v1beta/models/gemini-2.5-flash:generateContent", { contents, temperature: 0.5 })).status).toBe(400);
    expect(srv.refusals).toHaveLength(5);
    srv.refusals.length = 0;
  });

  it("sends no thinkingConfig to 2.0 Flash and an output limit of the answer budget alone", async () => {
    const { config } = await sentConfig({ model: "gemini-2.0-flash", thinkingBudget: 512 });
    expect(config.thinkingConfig).toBeUndefined();
    expect(config.maxOutputTokens).toBe(1024);
  });

  it("sends the default budget of 512 without thoughts to 2.5 Flash, and an output limit of that budget plus the answer budget", async () => {
    const { gen, config } = await sentConfig({ temperature: 0.5 });
    expect(gen.temperature).toBe(0.5);
    expect(config.thinkingConfig).toEqual({ thinkingBudget: 512, includeThoughts: false });
    expect(config.maxOutputTokens).toBe(1024 + 512);
    expect(config.temperature).toBe(0.5);
  });

  it("moves budget 0 to 2.5 Pro's minimum of 128 instead of sending what it refuses", async () => {
    const { config } = await sentConfig({ model: "gemini-2.5-pro", thinkingBudget: 0 });
    expect(config.thinkingConfig).toEqual({ thinkingBudget: 128, includeThoughts: false });
    expect(config.maxOutputTokens).toBe(1024 + 128);
  });

  it("passes -1 (dynamic) to 2.5 Flash", async () => {
    const { config } = await sentConfig({ thinkingBudget: -1 });
    expect(config.thinkingConfig).toEqual({ thinkingBudget: -1, includeThoughts: false });
  });

  it("sends Gemini 3 a thinkingLevel for the budget (512 -> LOW) and no thinkingBudget", async () => {
    const { config } = await sentConfig({ model: "gemini-3-pro-preview", thinkingBudget: 512 });
    expect(config.thinkingConfig).toEqual({ thinkingLevel: "LOW", includeThoughts: false });
  });

  it("takes budget 0 on 2.5 Flash and lets a request override the temperature and the answer budget", async () => {
    const { config } = await sentConfig({ thinkingBudget: 0, temperature: 0.5 }, { temperature: 1.5, maxOutputTokens: 300 });
    expect(config.thinkingConfig).toEqual({ thinkingBudget: 0, includeThoughts: false });
    expect(config.maxOutputTokens).toBe(300);
    expect(config.temperature).toBe(1.5);
  });

  it("sends no temperature when none is configured, nor to a model it does not know", async () => {
    const { gen, config } = await sentConfig({});
    expect(gen.temperature).toBeNull();
    expect("temperature" in config).toBe(false);
    const unknown = createGeminiGenerator({ model: "gemini-9-ultra", apiKey: KEY, temperature: 0.5 });
    expect(unknown.temperature).toBeNull();
  });

  it("answers with the non-thought parts only, and counts the thoughts as output tokens", async () => {
    const srv = await start(() => ({ status: 200, body: response([{ text: "Dana checks the price.", thought: true }, { text: "I would buy it." }], "STOP", { input: 700, output: 30, reasoning: 480 }) }));
    const result = await createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url }).generate(request);
    expect(result.text).toBe("I would buy it.");
    expect(result.usage).toEqual({ inputTokens: 700, outputTokens: 510, reasoningTokens: 480 });
  });

  it("never takes RECITATION's partial text as the answer: it asks again and returns the next answer", async () => {
    const srv = await start((_req, i) => (i === 0 ? geminiFaults.recitation(MODEL) : undefined));
    const result = await createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url, policy: quickPolicy() }).generate(request);
    expect(result.text).toBe(`answer from ${MODEL}`);
    expect(srv.requests).toHaveLength(2);
  });

  it("ends in bad_response, naming RECITATION, when every answer recites", async () => {
    const srv = await start(() => geminiFaults.recitation(MODEL));
    const err = await failureOf(createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url, answerRetries: 1, policy: quickPolicy() }).generate(request));
    expect(err).toMatchObject({ kind: "bad_response", reason: "the answer was stopped before it was complete (finish reason RECITATION)" });
    expect(srv.requests).toHaveLength(2);
  });

  it("treats a SAFETY finish as a refusal and does not ask again", async () => {
    const srv = await start(() => geminiFaults.safety(MODEL));
    const err = await failureOf(createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url }).generate(request));
    expect(err).toMatchObject({ kind: "refused", reason: "finish reason SAFETY" });
    expect(srv.requests).toHaveLength(1);
  });

  it("waits the 429's RetryInfo.retryDelay (2s) before trying again", async () => {
    const srv = await start((_req, i) => (i === 0 ? geminiFaults.rateLimited("2s") : undefined));
    const delays: number[] = [];
    const result = await createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url, policy: quickPolicy(delays) }).generate(request);
    expect(result.text).toBe(`answer from ${MODEL}`);
    expect(delays).toEqual([2000]);
    expect(srv.requests).toHaveLength(2);
  });

  it("does not retry a per-day QuotaFailure: it is a quota_exhausted misconfiguration", async () => {
    const srv = await start(() => geminiFaults.dailyQuota());
    const delays: number[] = [];
    const err = await failureOf(createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url, policy: quickPolicy(delays), settings: { key: "GEMINI_API_KEY" } }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", retryable: false, status: 429, misconfiguration: { cause: "quota_exhausted" } });
    expect(err.misconfiguration!.fix).toContain("GEMINI_API_KEY");
    expect(srv.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("reports a wrong key (400 API_KEY_INVALID) as a credentials misconfiguration, not an invalid request", async () => {
    fake = await startStrictGemini({ apiKey: "AIza-the-right-one" });
    const err = await failureOf(createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: fake.url }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", status: 400, misconfiguration: { cause: "credentials" } });
    expect(fake.refusals).toHaveLength(1);
    fake.refusals.length = 0;
  });

  it("reports an unknown model (404) as unknown_model and a region refusal (400 FAILED_PRECONDITION) as region_or_version", async () => {
    const srv = await start((_req, i) =>
      i === 0 ? undefined : { status: 400, body: { error: { code: 400, message: "User location is not supported for the API use.", status: "FAILED_PRECONDITION" } } },
    );
    const missing = await failureOf(createGeminiGenerator({ model: "gemini-9-ultra", apiKey: KEY, baseURL: srv.url }).generate(request));
    expect(missing.misconfiguration?.cause).toBe("unknown_model");
    srv.refusals.length = 0;
    const region = await failureOf(createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url }).generate(request));
    expect(region.misconfiguration?.cause).toBe("region_or_version");
  });

  for (const model of ["gemini-embedding-001", "gemini-embedding-2"]) {
    it(`${model} returns one vector per text: 3 for 3 texts`, async () => {
      const srv = await start();
      const texts = ["I would definitely buy it.", "I might.", "Never."];
      const vectors = await createGeminiEmbedder({ model, apiKey: KEY, baseURL: srv.url }).embed(texts);
      expect(srv.refusals).toEqual([]);
      expect(vectors).toHaveLength(3);
      expect(vectors.every((v) => v.length === 3072)).toBe(true);
      expect(new Set(vectors.map((v) => v[0])).size).toBe(3);
      const sent = srv.requests[0]!.body as { requests: Array<{ content: { parts: unknown[] } }> };
      expect(sent.requests.map((r) => r.content.parts.length)).toEqual([1, 1, 1]);
    });
  }

  it("keeps GOOGLE_GENAI_* and GOOGLE_* variables out of the client", async () => {
    const srv = await start();
    const saved = { ...process.env };
    Object.assign(process.env, { GOOGLE_GENAI_USE_VERTEXAI: "true", GOOGLE_GENAI_API_VERSION: "v1", GOOGLE_API_KEY: "AIza-ambient", GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9", GOOGLE_CLOUD_PROJECT: "ambient" });
    try {
      const result = await createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url }).generate(request);
      expect(result.text).toBe(`answer from ${MODEL}`);
      expect(srv.requests[0]!.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
      expect(srv.requests[0]!.headers["x-goog-api-key"]).toBe(KEY);
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});
