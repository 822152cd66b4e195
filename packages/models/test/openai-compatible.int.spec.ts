import { afterEach, describe, expect, it } from "vitest";
import { createCallPolicy, createOpenAICompatibleGenerator, isModelError, createOpenAICompatibleEmbedder, type OpenAICompatibleOptions } from "../src/index.ts";
import { describeAdapterContract, type Tokens } from "./support/adapter-contract.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";

type ChatBody = {
  model: string;
  max_tokens?: number;
  max_completion_tokens?: number;
  reasoning_effort?: string;
  temperature?: number;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
};

const MODEL = "gpt-4o-mini";
const KEY = "sk-test-0123456789";

const chatOk = (text: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: MODEL,
  choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" }],
  usage: { prompt_tokens: 812, completion_tokens: 41, total_tokens: 853 },
});

/** A completion as OpenAI reports one: completion_tokens holds the reasoning tokens too. */
const completion = (content: string | null, finishReason: string, tokens: Tokens, refusal: string | null = null) => ({
  id: "chatcmpl-2",
  object: "chat.completion",
  created: 1_700_000_000,
  model: MODEL,
  choices: [{ index: 0, message: { role: "assistant", content, refusal }, logprobs: null, finish_reason: finishReason }],
  usage: {
    prompt_tokens: tokens.input,
    completion_tokens: tokens.output + tokens.reasoning,
    total_tokens: tokens.input + tokens.output + tokens.reasoning,
    completion_tokens_details: { reasoning_tokens: tokens.reasoning, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  },
});

const outputLimitOf = (body: unknown) => (body as ChatBody).max_completion_tokens ?? (body as ChatBody).max_tokens!;

const userParts = (body: unknown) => {
  const content = (body as ChatBody).messages[1]!.content;
  return typeof content === "string" ? [] : content;
};

describeAdapterContract({
  provider: "openai",
  model: MODEL,
  apiKey: KEY,
  generatePath: "/v1/chat/completions",
  credentialOf: (h) => h.authorization?.replace(/^Bearer /, ""),
  modelOf: (b) => (b as ChatBody).model,
  imagesOf: (b) =>
    userParts(b)
      .filter((p) => p.type === "image_url")
      .map((p) => {
        const match = /^data:([^;]+);base64,(.*)$/.exec(p.image_url!.url);
        return { mime: match![1]!, data: match![2]! };
      }),
  textsOf: (b) => ({ system: (b as ChatBody).messages[0]!.content as string, user: userParts(b).at(-1)!.text! }),
  okGenerate: chatOk,
  errorBody: (status) => ({ error: { message: `upstream said ${status}`, type: status === 429 ? "requests" : "invalid_request_error", param: null, code: null } }),
  outputLimitOf,
  answers: {
    ok: (text, tokens) => completion(text, "stop", tokens),
    empty: (tokens) => completion("", "stop", tokens),
    truncated: (text, tokens) => completion(text, "length", tokens),
    refusal: () => completion(null, "stop", { input: 700, output: 9, reasoning: 0 }, "I can't help with Dana's request."),
    stops: { empty: "finish reason stop", truncated: "finish reason length" },
    // The refusal text is the model's prose and may echo the prompt, so it is never repeated.
    // A refusal message carries no stop code: the sentence names none.
    refusalReason: undefined,
  },
  makeGenerator: (url, policy, options) => createOpenAICompatibleGenerator({ ...options, model: MODEL, apiKey: KEY, baseURL: `${url}/v1`, policy }),
  embedding: {
    path: "/v1/embeddings",
    inputsOf: (b) => (b as { input: string[] }).input,
    // Answered out of order: the adapter must order by `index`.
    ok: (vectors) => ({ object: "list", model: "text-embedding-3-small", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })).reverse(), usage: { prompt_tokens: 9, total_tokens: 9 } }),
    makeEmbedder: (url, policy) => createOpenAICompatibleEmbedder({ model: "text-embedding-3-small", apiKey: KEY, baseURL: `${url}/v1`, policy }),
  },
});

describe("openai-compatible specifics", () => {
  let server: FakeProvider | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const image = { bytes: new Uint8Array([1, 2, 3]), mime: "image/jpeg" as const };

  it("talks to a keyless local server (Ollama style) without any Authorization header, using max_tokens", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: chatOk("ok") }));
    const gen = createOpenAICompatibleGenerator({ model: "llava:13b", baseURL: `${server.url}/v1`, policy: createCallPolicy() });
    const result = await gen.generate({ system: "s", user: "u", images: [image], maxOutputTokens: 300 });
    expect(result.usage).toEqual({ inputTokens: 812, outputTokens: 41 });
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBeUndefined();
    expect((sent.body as ChatBody).model).toBe("llava:13b");
    expect((sent.body as ChatBody).max_tokens).toBe(300);
    expect((sent.body as ChatBody).max_completion_tokens).toBeUndefined();
  });

  it("sends max_completion_tokens when told to (OpenAI's newer models accept only that)", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: chatOk("ok") }));
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, maxTokensField: "max_completion_tokens" });
    await gen.generate({ system: "s", user: "u", images: [], maxOutputTokens: 222, temperature: 0.7 });
    const body = server.requests[0]!.body as ChatBody & { temperature?: number };
    expect(body.max_completion_tokens).toBe(222);
    expect(body.max_tokens).toBeUndefined();
    expect(body.temperature).toBe(0.7);
  });

  it("labels the two images of a vote so the prompt can say Image 1 and Image 2", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: chatOk("WINNER: 1") }));
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1` });
    await gen.generate({ system: "s", user: "Which wins?", images: [image, image] });
    expect(userParts(server.requests[0]!.body).map((p) => p.type === "text" ? p.text : "<image>")).toEqual(["Image 1:", "<image>", "Image 2:", "<image>", "Which wins?"]);
  });

  it('reports an empty completion as "bad_response" and an exhausted quota as a 429 that is not retried', async () => {
    server = await startFakeProvider((_r, i) =>
      i === 0 ? { status: 200, body: chatOk("") } : { status: 429, body: { error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota", param: null } } },
    );
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, policy: createCallPolicy({ baseDelayMs: 1 }), answerRetries: 0 });
    const empty = await gen.generate({ system: "s", user: "u", images: [] }).catch((e: unknown) => e);
    expect(isModelError(empty) && empty.kind).toBe("bad_response");
    const quota = await gen.generate({ system: "s", user: "u", images: [] }).catch((e: unknown) => e);
    expect(isModelError(quota) && { kind: quota.kind, retryable: quota.retryable }).toEqual({ kind: "rate_limited", retryable: false });
    expect(server.requests).toHaveLength(2);
  });

  it("honours retry-after-ms, which OpenAI sends next to Retry-After", async () => {
    server = await startFakeProvider((_r, i) => (i === 0 ? { status: 429, headers: { "retry-after-ms": "1234", "retry-after": "2" }, body: { error: { message: "slow down" } } } : { status: 200, body: chatOk("ok") }));
    const waits: number[] = [];
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, policy: createCallPolicy({ sleep: async (ms) => void waits.push(ms) }) });
    await gen.generate({ system: "s", user: "u", images: [] });
    expect(waits).toEqual([1234]);
  });
});

describe("openai-compatible budget, reasoning and temperature on the wire", () => {
  let server: FakeProvider | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const request = { system: "s", user: "u", images: [] };
  const sentBody = async (options: Partial<OpenAICompatibleOptions>, req: { maxOutputTokens?: number; temperature?: number } = {}) => {
    server = await startFakeProvider(() => ({ status: 200, body: chatOk("ok") }));
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, ...options });
    await gen.generate({ ...request, ...req });
    return { gen, body: server.requests[0]!.body as ChatBody };
  };

  it("without a reasoning effort: sends the answer budget and the generator's temperature, and no reasoning_effort", async () => {
    const { gen, body } = await sentBody({ temperature: 0.5, maxOutputTokens: 900 });
    expect(gen.temperature).toBe(0.5);
    expect(body.max_tokens).toBe(900);
    expect(body.temperature).toBe(0.5);
    expect("reasoning_effort" in body).toBe(false);
  });

  it("defaults the answer budget to 1024 tokens and sends no temperature when none is configured", async () => {
    const { gen, body } = await sentBody({});
    expect(gen.temperature).toBeNull();
    expect(body.max_tokens).toBe(1024);
    expect("temperature" in body).toBe(false);
  });

  it("lets a request override the temperature and the answer budget", async () => {
    const { body } = await sentBody({ temperature: 0.5 }, { temperature: 1.3, maxOutputTokens: 300 });
    expect(body.temperature).toBe(1.3);
    expect(body.max_tokens).toBe(300);
  });

  it("with a reasoning effort: sends it, adds the reasoning budget to max_completion_tokens, and omits the temperature even when a request asks for one", async () => {
    const { gen, body } = await sentBody({ maxTokensField: "max_completion_tokens", reasoningEffort: "low", temperature: 0.5, maxOutputTokens: 1024 }, { temperature: 0.9 });
    expect(gen.temperature).toBeNull();
    expect(body.reasoning_effort).toBe("low");
    // 1024 for the answer plus the default reasoning budget of 8192.
    expect(body.max_completion_tokens).toBe(9216);
    expect(body.max_tokens).toBeUndefined();
    expect("temperature" in body).toBe(false);
  });

  it("adds a configured reasoning budget, in max_tokens on a compatible server", async () => {
    const { body } = await sentBody({ reasoningEffort: "high", reasoningBudget: 2000, maxOutputTokens: 1000 });
    expect(body.max_tokens).toBe(3000);
    expect(body.reasoning_effort).toBe("high");
  });

  it("reports usage with the reasoning tokens, counted inside the output tokens as OpenAI bills them", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: completion("I would buy it.", "stop", { input: 812, output: 41, reasoning: 640 }) }));
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, reasoningEffort: "medium" });
    const result = await gen.generate(request);
    expect(result.usage).toEqual({ inputTokens: 812, outputTokens: 681, reasoningTokens: 640 });
  });

  it("treats a content filter stop as a refusal and does not ask again", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: completion("", "content_filter", { input: 812, output: 0, reasoning: 0 }) }));
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1` });
    const err = await gen.generate(request).catch((e: unknown) => e);
    expect(isModelError(err) && { kind: err.kind, reason: err.reason }).toEqual({ kind: "bad_request", reason: "finish reason content_filter" });
    expect(server.requests).toHaveLength(1);
  });
});
