import { afterEach, describe, expect, it } from "vitest";
import { createGeminiEmbedder, createGeminiGenerator, isModelError, type GeminiOptions } from "../src/index.ts";
import { describeAdapterContract, type Tokens } from "./support/adapter-contract.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";

type Part = { text?: string; thought?: boolean; inlineData?: { mimeType: string; data: string } };
type GenerationConfig = { maxOutputTokens?: number; temperature?: number; thinkingConfig?: { thinkingBudget?: number; includeThoughts?: boolean } };
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
  generatePath: `/v1/models/${MODEL}:generateContent`,
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
  embedding: {
    path: `/v1/models/${EMBED_MODEL}:batchEmbedContents`,
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

describe("gemini budget, thinking and temperature on the wire", () => {
  let server: FakeProvider | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const request = { system: "s", user: "u", images: [] };
  const sentConfig = async (options: Partial<GeminiOptions>, req: { maxOutputTokens?: number; temperature?: number } = {}) => {
    server = await startFakeProvider(() => ({ status: 200, body: response([{ text: "ok" }], "STOP", { input: 10, output: 1, reasoning: 0 }) }));
    const gen = createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: server.url, ...options });
    await gen.generate({ ...request, ...req });
    return { gen, config: generationConfigOf(server.requests[0]!.body) };
  };

  it("sends an explicit thinking budget of 512 without thoughts, and an output limit of that budget plus the answer budget", async () => {
    const { gen, config } = await sentConfig({ temperature: 0.5 });
    expect(gen.temperature).toBe(0.5);
    expect(config.thinkingConfig).toEqual({ thinkingBudget: 512, includeThoughts: false });
    expect(config.maxOutputTokens).toBe(1024 + 512);
    expect(config.temperature).toBe(0.5);
  });

  it("takes a configured thinking budget, 0 included, and lets a request override the temperature and the answer budget", async () => {
    const { config } = await sentConfig({ thinkingBudget: 0, temperature: 0.5 }, { temperature: 1.5, maxOutputTokens: 300 });
    expect(config.thinkingConfig).toEqual({ thinkingBudget: 0, includeThoughts: false });
    expect(config.maxOutputTokens).toBe(300);
    expect(config.temperature).toBe(1.5);
  });

  it("sends no temperature when none is configured", async () => {
    const { gen, config } = await sentConfig({});
    expect(gen.temperature).toBeNull();
    expect("temperature" in config).toBe(false);
  });

  it("answers with the non-thought parts only, and counts the thoughts as output tokens", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: response([{ text: "Dana checks the price.", thought: true }, { text: "I would buy it." }], "STOP", { input: 700, output: 30, reasoning: 480 }) }));
    const gen = createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: server.url });
    const result = await gen.generate(request);
    expect(result.text).toBe("I would buy it.");
    expect(result.usage).toEqual({ inputTokens: 700, outputTokens: 510, reasoningTokens: 480 });
  });

  it("treats a SAFETY finish as a refusal and does not ask again", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: response([], "SAFETY", { input: 700, output: 0, reasoning: 0 }) }));
    const gen = createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: server.url });
    const err = await gen.generate(request).catch((e: unknown) => e);
    expect(isModelError(err) && err.reason).toBe("finish reason SAFETY");
    expect(server.requests).toHaveLength(1);
  });
});
