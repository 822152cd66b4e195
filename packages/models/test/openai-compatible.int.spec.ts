import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCallPolicy, createOpenAICompatibleEmbedder, createOpenAICompatibleGenerator, isModelError, type ModelError, type OpenAICompatibleOptions } from "../src/index.ts";
import { describeAdapterContract, type Tokens } from "./support/adapter-contract.ts";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { Reply } from "./support/fake-provider.ts";
import { openaiCheck, openaiChatCompletion, openaiQuotaExhausted, openaiRateLimited, startStrictOpenAI, OPENAI_FAKE_KEY } from "./support/strict/openai.ts";
import type { StrictFake } from "./support/strict/strict-fake.ts";
import { validateChatCompletionRequest } from "./support/strict/openapi-validator.ts";

type ChatBody = {
  model: string;
  max_tokens?: number;
  max_completion_tokens?: number;
  reasoning_effort?: string;
  temperature?: number;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
};

// The strict fake compiles OpenAI's OpenAPI document on its first request, which takes seconds
// under a loaded CI: done here, so the contract's first call (5 s timeout) does not wait on it.
beforeAll(() => {
  validateChatCompletionRequest({});
});

const MODEL = "gpt-4o-mini";
const KEY = OPENAI_FAKE_KEY;

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
  okGenerate: (text) => openaiChatCompletion(text, MODEL),
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
  check: openaiCheck(KEY),
  embedding: {
    path: "/v1/embeddings",
    inputsOf: (b) => (b as { input: string[] }).input,
    // Answered out of order: the adapter must order by `index`.
    ok: (vectors) => ({ object: "list", model: "text-embedding-3-small", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })).reverse(), usage: { prompt_tokens: 9, total_tokens: 9 } }),
    makeEmbedder: (url, policy) => createOpenAICompatibleEmbedder({ model: "text-embedding-3-small", apiKey: KEY, baseURL: `${url}/v1`, policy }),
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

describe("openai-compatible against the strict OpenAI fake", () => {
  let server: StrictFake | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (reply?: (index: number) => Reply | undefined) => {
    server = await startStrictOpenAI({ apiKey: KEY, ...(reply ? { reply: (_req, i) => reply(i) } : {}) });
    return server;
  };
  const image = { bytes: new Uint8Array([1, 2, 3]), mime: "image/jpeg" as const };
  const request = { system: "You are Dana.", user: "Would you buy this?", images: [image] };
  const generator = (srv: StrictFake, options: Partial<OpenAICompatibleOptions> = {}) => createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: srv.url, ...options });
  const body = (srv: StrictFake, i = 0) => srv.requests[i]!.body as ChatBody;

  // Every chat family of capabilities/openai.ts, at both seat temperatures, with and without a reasoning effort.
  const FAMILIES = ["gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-pro", "gpt-5.1", "gpt-5.2", "gpt-5.2-pro", "gpt-5.4", "gpt-5.4-mini", "gpt-5.5", "gpt-5.6-sol", "o3", "o4-mini", "gpt-4o-2024-11-20", "gpt-5-mini-2025-08-07"];
  for (const model of FAMILIES) {
    it(`${model}: answers at seat temperatures 0.5 and 1.0 and with reasoning effort "high" and "minimal", with no refusal`, async () => {
      const srv = await start();
      for (const options of [{ temperature: 0.5 }, { temperature: 1.0 }, { temperature: 0.5, reasoningEffort: "high" as const }, { temperature: 1.0, reasoningEffort: "minimal" as const }]) {
        const result = await generator(srv, { model, ...options }).generate(request);
        expect(result.text).toContain("buy");
      }
      expect(srv.refusals).toEqual([]);
      // OpenAI's models all take max_completion_tokens; none got max_tokens.
      expect(srv.requests.every((r) => (r.body as ChatBody).max_tokens === undefined && typeof (r.body as ChatBody).max_completion_tokens === "number")).toBe(true);
    });
  }

  it("sends the seat temperature to gpt-4.1 but none to gpt-5-mini, whose Generator.temperature is null", async () => {
    const srv = await start();
    const gpt41 = generator(srv, { model: "gpt-4.1", temperature: 0.5 });
    const gpt5 = generator(srv, { model: "gpt-5-mini", temperature: 0.5 });
    expect(gpt41.temperature).toBe(0.5);
    expect(gpt5.temperature).toBeNull();
    await gpt41.generate(request);
    await gpt5.generate({ ...request, temperature: 1.3 });
    expect(body(srv, 0).temperature).toBe(0.5);
    expect("temperature" in body(srv, 1)).toBe(false);
  });

  it("sends a configured reasoning effort only to a model that takes that value", async () => {
    const srv = await start();
    await generator(srv, { model: "gpt-4.1", reasoningEffort: "low" }).generate(request);
    await generator(srv, { model: "gpt-5-mini", reasoningEffort: "low", maxOutputTokens: 1000, reasoningBudget: 2000 }).generate(request);
    await generator(srv, { model: "gpt-5.1", reasoningEffort: "minimal" }).generate(request);
    expect("reasoning_effort" in body(srv, 0)).toBe(false);
    expect(body(srv, 0).max_completion_tokens).toBe(1024);
    expect(body(srv, 1).reasoning_effort).toBe("low");
    // The answer budget plus the reasoning budget, since OpenAI counts reasoning inside the limit.
    expect(body(srv, 1).max_completion_tokens).toBe(3000);
    expect("reasoning_effort" in body(srv, 2)).toBe(false);
  });

  it("uses max_completion_tokens for gpt-5 behind a non-OpenAI base URL (EU residency, a proxy)", async () => {
    const srv = await start();
    // The fake stands in for https://eu.api.openai.com/v1 or a gateway: the URL is not OpenAI's default.
    await generator(srv, { model: "gpt-5", maxOutputTokens: 500 }).generate(request);
    expect(body(srv).max_completion_tokens).toBe(500);
    expect(body(srv).max_tokens).toBeUndefined();
    expect(srv.refusals).toEqual([]);
  });

  it("keeps maxTokensField as an explicit override", async () => {
    const srv = await start();
    await generator(srv, { model: "gpt-4o", maxTokensField: "max_tokens", maxOutputTokens: 300 }).generate(request);
    expect(body(srv).max_tokens).toBe(300);
  });

  it("waits out x-ratelimit-reset-tokens: 2s before trying again", async () => {
    const srv = await start((i) => (i === 0 ? openaiRateLimited({ tokens: "2s", requests: "120ms", exhausted: "tokens" }) : undefined));
    const waits: number[] = [];
    const result = await generator(srv, { policy: createCallPolicy({ sleep: async (ms) => void waits.push(ms) }) }).generate(request);
    expect(result.text).toContain("buy");
    expect(waits).toEqual([2000]);
  });

  it("waits 28 s for a limit resetting in 28 s, rather than giving up after short backoffs", async () => {
    const srv = await start((i) => (i === 0 ? openaiRateLimited({ tokens: "28s", requests: "6m0s", exhausted: "tokens" }) : undefined));
    const waits: number[] = [];
    await generator(srv, { policy: createCallPolicy({ sleep: async (ms) => void waits.push(ms) }) }).generate(request);
    expect(waits).toEqual([28_000]);
  });

  it("does not retry insufficient_quota and reports it as a quota misconfiguration", async () => {
    const srv = await start(() => openaiQuotaExhausted());
    const err = await failureOf(generator(srv, { policy: createCallPolicy({ baseDelayMs: 1 }) }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", retryable: false, misconfiguration: { cause: "quota_exhausted" } });
    expect(srv.requests).toHaveLength(1);
  });

  it("maps a 400 unsupported_value to an unsupported_parameter misconfiguration, never a refusal", async () => {
    const srv = await start();
    // maxTokensField forces what a wrong configuration would send: the fake refuses it as OpenAI does.
    const err = await failureOf(generator(srv, { model: "o3", maxTokensField: "max_tokens" }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", status: 400, misconfiguration: { cause: "unsupported_parameter" } });
    expect(srv.refusals.map((r) => r.status)).toEqual([400]);
  });

  it("names the operator's settings in the fix of a wrong key", async () => {
    const srv = await start();
    const err = await failureOf(generator(srv, { apiKey: "sk-wrong", settings: { key: "OPENAI_API_KEY" } }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", status: 401, misconfiguration: { cause: "credentials" } });
    expect(err.misconfiguration!.fix).toContain("OPENAI_API_KEY");
  });

  it("reports an unknown model as unknown_model", async () => {
    const srv = await start();
    const err = await failureOf(generator(srv, { model: "gpt-9-ultra" }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", status: 404, misconfiguration: { cause: "unknown_model" } });
  });

  for (const [model, dimensions] of [["text-embedding-3-small", 1536], ["text-embedding-3-large", 3072]] as const) {
    it(`embeds with ${model} (${dimensions} dimensions)`, async () => {
      const srv = await start();
      const vectors = await createOpenAICompatibleEmbedder({ model, apiKey: KEY, baseURL: srv.url }).embed(["I would buy it.", "Never."]);
      expect(vectors.map((v) => v.length)).toEqual([dimensions, dimensions]);
      expect(srv.refusals).toEqual([]);
    });
  }

  it("treats a content filter stop as a refusal and does not ask again", async () => {
    const srv = await start(() => ({ status: 200, body: completion("", "content_filter", { input: 812, output: 0, reasoning: 0 }) }));
    const err = await failureOf(generator(srv).generate(request));
    expect({ kind: err.kind, reason: err.reason }).toEqual({ kind: "refused", reason: "finish reason content_filter" });
    expect(srv.requests).toHaveLength(1);
  });

  it("labels the two images of a vote so the prompt can say Image 1 and Image 2", async () => {
    const srv = await start();
    await generator(srv).generate({ system: "s", user: "Which wins?", images: [image, image] });
    expect(userParts(body(srv)).map((p) => (p.type === "text" ? p.text : "<image>"))).toEqual(["Image 1:", "<image>", "Image 2:", "<image>", "Which wins?"]);
  });

  it("keeps ambient OPENAI_* variables out of the client", async () => {
    const srv = await start();
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_ORG_ID: "org-ambient", OPENAI_PROJECT_ID: "proj-ambient", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_CUSTOM_HEADERS: "X-Ambient: yes" });
    try {
      await generator(srv).generate(request);
    } finally {
      for (const k of ["OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_BASE_URL", "OPENAI_CUSTOM_HEADERS"]) if (saved[k] === undefined) delete process.env[k];
    }
    const headers = srv.requests[0]!.headers;
    expect(headers["openai-organization"]).toBeUndefined();
    expect(headers["openai-project"]).toBeUndefined();
    expect(headers["x-ambient"]).toBeUndefined();
  });
});

describe("request bodies are typed by the SDK", () => {
  it("refuses, at compile time, a property ChatCompletionCreateParamsNonStreaming does not have", () => {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-5",
      messages: [{ role: "user", content: "hi" }],
      // @ts-expect-error `thinking` is not a chat completions parameter (resources/chat/completions/completions.d.ts)
      thinking: { type: "enabled" },
    };
    expect(body.model).toBe("gpt-5");
  });
});

describe("the strict OpenAI fake refuses what OpenAI refuses", () => {
  let server: StrictFake | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const post = async (path: string, payload: unknown, key = KEY) => {
    server ??= await startStrictOpenAI({ apiKey: KEY });
    const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(payload) });
    return { status: res.status, body: (await res.json()) as { error: { code: string | null; param: string | null; type: string } } };
  };
  const messages = [{ role: "user", content: "hi" }];

  // Each case cites the rule it enforces.
  const cases: Array<[string, string, unknown, number, string | null, string | null]> = [
    ["temperature on gpt-5-mini (reasoning guide: default only)", "/chat/completions", { model: "gpt-5-mini", messages, temperature: 0.5 }, 400, "unsupported_value", "temperature"],
    ["max_tokens on o3 (openapi.yaml: not compatible with o-series)", "/chat/completions", { model: "o3", messages, max_tokens: 100 }, 400, "unsupported_parameter", "max_tokens"],
    ["reasoning_effort on gpt-4.1 (not a reasoning model)", "/chat/completions", { model: "gpt-4.1", messages, reasoning_effort: "low" }, 400, "unsupported_parameter", "reasoning_effort"],
    ["minimal on gpt-5.1 (reasoning guide)", "/chat/completions", { model: "gpt-5.1", messages, reasoning_effort: "minimal" }, 400, "unsupported_value", "reasoning_effort"],
    ["temperature 3 (openapi.yaml: maximum 2)", "/chat/completions", { model: "gpt-4.1", messages, temperature: 3 }, 400, null, "temperature"],
    ["an unknown argument (Unrecognized request argument)", "/chat/completions", { model: "gpt-4.1", messages, thinking: { type: "enabled" } }, 400, null, "thinking"],
    ["no messages (openapi.yaml: minItems 1)", "/chat/completions", { model: "gpt-4.1", messages: [] }, 400, null, "messages"],
    ["an unknown model", "/chat/completions", { model: "gpt-9", messages }, 404, "model_not_found", null],
    ["chat to an embedding model", "/chat/completions", { model: "text-embedding-3-small", messages }, 404, null, "model"],
    ["an image URL that is not a data URL", "/chat/completions", { model: "gpt-4.1", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:application/pdf;base64,AAAA" } }] }] }, 400, "invalid_image_format", "messages[0].content[0].image_url.url"],
    ["an image given to the embeddings endpoint (openapi.yaml: input is text or tokens)", "/embeddings", { model: "text-embedding-3-small", input: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] }, 400, null, "input"],
    ["dimensions above the model's (embeddings guide)", "/embeddings", { model: "text-embedding-3-small", input: ["a"], dimensions: 4096 }, 400, "invalid_value", "dimensions"],
  ];
  for (const [what, path, payload, status, code, param] of cases) {
    it(`refuses ${what}`, async () => {
      const res = await post(path, payload);
      expect(res.status).toBe(status);
      expect(res.body.error).toMatchObject({ code, ...(param === null ? {} : { param }) });
      expect(server!.refusals).toHaveLength(1);
    });
  }

  it("refuses a wrong key with 401 invalid_api_key", async () => {
    const res = await post("/chat/completions", { model: "gpt-4.1", messages }, "sk-wrong");
    expect(res).toMatchObject({ status: 401, body: { error: { code: "invalid_api_key", type: "invalid_request_error" } } });
  });
});
