import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { afterEach, describe, expect, it } from "vitest";
import { anthropicStartupWarnings } from "../src/adapters/anthropic.ts";
import { createAnthropicGenerator, createCallPolicy, describeModelError, isModelError, type AnthropicOptions, type CallPolicyOptions, type ModelError } from "../src/index.ts";
import { describeAdapterContract, type Tokens } from "./support/adapter-contract.ts";
import type { RecordedRequest, Reply } from "./support/fake-provider.ts";
import {
  ANTHROPIC_FAKE_MODELS,
  ANTHROPIC_FAKE_VERSION,
  anthropicCheck,
  anthropicContextWindowExceeded,
  anthropicErrorBody,
  anthropicMessage,
  anthropicOverloaded,
  anthropicRateLimited,
  anthropicRefusal,
  anthropicSpendCapReached,
  startStrictAnthropic,
} from "./support/strict/anthropic.ts";
import type { StrictFake } from "./support/strict/strict-fake.ts";

type MessagesBody = {
  model: string;
  system: string;
  max_tokens: number;
  temperature?: number;
  thinking?: { type: string; budget_tokens?: number };
  output_config?: unknown;
  messages: Array<{ role: string; content: Array<{ type: string; text?: string; source?: { type: string; media_type: string; data: string } }> }>;
};

const MODEL = "claude-sonnet-4-6";
const KEY = "sk-ant-test-0123456789";

/** A message as Anthropic reports one: output_tokens holds the thinking tokens too. */
const message = (content: unknown[], stopReason: string, tokens: Tokens) => ({
  id: "msg_02",
  type: "message",
  role: "assistant",
  model: MODEL,
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { input_tokens: tokens.input, output_tokens: tokens.output + tokens.reasoning, output_tokens_details: { thinking_tokens: tokens.reasoning } },
});
const thinkingBlock = { type: "thinking", thinking: "Dana would weigh the price first.", signature: "sig-1" };
const textBlocks = (text: string) => (text ? [{ type: "text", text }] : []);

const errorType: Record<number, string> = { 400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error", 429: "rate_limit_error", 500: "api_error", 503: "overloaded_error" };

describeAdapterContract({
  provider: "anthropic",
  model: MODEL,
  apiKey: KEY,
  generatePath: "/v1/messages",
  // SDK 1.12 sends the key as a bearer token (client.js apiKeyAuth); x-api-key is the older form.
  credentialOf: (h) => (h["x-api-key"] as string | undefined) ?? h.authorization?.replace(/^Bearer /, ""),
  modelOf: (b) => (b as MessagesBody).model,
  imagesOf: (b) =>
    (b as MessagesBody).messages[0]!.content
      .filter((c) => c.type === "image")
      .map((c) => {
        expect(c.source!.type).toBe("base64");
        return { mime: c.source!.media_type, data: c.source!.data };
      }),
  textsOf: (b) => ({ system: (b as MessagesBody).system, user: (b as MessagesBody).messages[0]!.content.at(-1)!.text! }),
  okGenerate: (text) => anthropicMessage({ model: MODEL, text, inputTokens: 912, outputTokens: 38 }),
  errorBody: (status) => anthropicErrorBody(errorType[status] ?? "api_error", `upstream said ${status}`),
  outputLimitOf: (b) => (b as MessagesBody).max_tokens,
  answers: {
    ok: (text, tokens) => message([thinkingBlock, ...textBlocks(text)], "end_turn", tokens),
    empty: (tokens) => message([thinkingBlock], "end_turn", tokens),
    // Thinking that runs into max_tokens leaves a thinking block and no text.
    truncated: (text, tokens) => message([thinkingBlock, ...textBlocks(text)], "max_tokens", tokens),
    refusal: () => message([{ type: "text", text: "I can't help with Dana's request." }], "refusal", { input: 700, output: 9, reasoning: 0 }),
    stops: { empty: "stop reason end_turn", truncated: "stop reason max_tokens" },
    refusalReason: "stop reason refusal",
  },
  makeGenerator: (url, policy, options) => createAnthropicGenerator({ ...options, model: MODEL, apiKey: KEY, baseURL: url, policy }),
  check: anthropicCheck(KEY),
});

/** A real 1x1 PNG, so the strict fake's image check passes. */
const PNG = new Uint8Array(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));
const request = { system: "You are Dana, 34, a careful shopper.", user: "Would you buy this?", images: [{ bytes: PNG, mime: "image/png" as const }] };

async function failureOf(promise: Promise<unknown>): Promise<ModelError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isModelError(err)) throw new Error(`expected a ModelError, got ${String(err)}`);
  return err;
}

describe("anthropic against the strict Messages API fake", () => {
  let server: StrictFake | undefined;
  let expectedRefusals = 0;
  afterEach(async () => {
    const refusals = server?.refusals ?? [];
    await server?.close();
    server = undefined;
    const expected = expectedRefusals;
    expectedRefusals = 0;
    if (expected === 0) expect(refusals.map((r) => `${r.status}: ${r.rule}`)).toEqual([]);
  });
  const start = async (reply?: (req: RecordedRequest, index: number) => Reply | undefined) => {
    server = await startStrictAnthropic({ apiKey: KEY, respond: (call) => `ok from ${call.model} with ${call.images} image(s)`, ...(reply ? { reply } : {}) });
    return server;
  };
  const policy = (options: CallPolicyOptions = {}) => createCallPolicy({ timeoutMs: 5_000, maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, ...options });
  const generator = (url: string, options: Partial<AnthropicOptions> = {}) => createAnthropicGenerator({ model: MODEL, apiKey: KEY, baseURL: url, policy: policy(), ...options });
  const bodies = (srv: StrictFake) => srv.requests.map((r) => r.body as MessagesBody);

  describe("every model of the SDK's Model union answers its first call", () => {
    const seats: Array<[string, Partial<AnthropicOptions>]> = [
      ["seat temperature 0.5", { temperature: 0.5 }],
      ["seat temperature 1.0", { temperature: 1.0 }],
      ["a thinking budget of 2048", { thinkingBudget: 2048 }],
    ];
    for (const model of Object.keys(ANTHROPIC_FAKE_MODELS)) {
      it(`${model}: with ${seats.map(([name]) => name).join(", ")}`, async () => {
        const srv = await start();
        for (const [, options] of seats) {
          const result = await generator(srv.url, { model, ...options }).generate(request);
          expect(result.text).toBe(`ok from ${model} with 1 image(s)`);
        }
        expect(srv.requests).toHaveLength(seats.length);
        expect(srv.refusals).toEqual([]);
        for (const body of bodies(srv)) expect("temperature" in body).toBe(false);
      });
    }
  });

  it("never sends a temperature, and says so: Generator.temperature is null", async () => {
    const srv = await start();
    const gen = generator(srv.url, { temperature: 0.5 });
    await gen.generate({ ...request, temperature: 0.9 });
    expect(gen.temperature).toBeNull();
    expect(bodies(srv)[0]).not.toHaveProperty("temperature");
    expect(anthropicStartupWarnings({ model: MODEL, temperature: 0.5 })).toEqual([expect.stringMatching(/temperature 0\.5 is ignored/)]);
  });

  it("without a thinking budget: max_tokens is the answer budget and no thinking is sent to a model that does not think by default", async () => {
    const srv = await start();
    await generator(srv.url, { model: "claude-sonnet-4-5" }).generate(request);
    await generator(srv.url, { model: "claude-opus-4-7" }).generate({ ...request, maxOutputTokens: 300 });
    const [sonnet, opus] = bodies(srv);
    expect(sonnet!.max_tokens).toBe(1024);
    expect(opus!.max_tokens).toBe(300);
    expect(sonnet).not.toHaveProperty("thinking");
    expect(opus).not.toHaveProperty("thinking");
  });

  it("with a thinking budget: Sonnet 4.5 gets enabled thinking with the budget, Opus 4.7 gets adaptive, and max_tokens is budget plus answer", async () => {
    const srv = await start();
    await generator(srv.url, { model: "claude-sonnet-4-5-20250929", thinkingBudget: 2048, maxOutputTokens: 1000 }).generate(request);
    await generator(srv.url, { model: "claude-opus-4-7", thinkingBudget: 2048, maxOutputTokens: 1000 }).generate(request);
    const [sonnet, opus] = bodies(srv);
    expect(sonnet!.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(opus!.thinking).toEqual({ type: "adaptive" });
    // No effort is sent: Anthropic offers no budget for adaptive thinking, so the budget only sizes max_tokens.
    expect(opus).not.toHaveProperty("output_config");
    expect(sonnet!.max_tokens).toBe(3048);
    expect(opus!.max_tokens).toBe(3048);
    expect(anthropicStartupWarnings({ model: "claude-opus-4-7", thinkingBudget: 2048 })).toEqual([expect.stringMatching(/only adaptive thinking/)]);
  });

  it("turns default thinking off where the model allows it, and keeps room for it where it cannot be turned off", async () => {
    const srv = await start();
    await generator(srv.url, { model: "claude-sonnet-5-5" }).generate(request);
    await generator(srv.url, { model: "claude-opus-5" }).generate(request);
    await generator(srv.url, { model: "claude-fable-5-1" }).generate(request);
    const [sonnet55, opus5, fable] = bodies(srv);
    expect(sonnet55!.thinking).toEqual({ type: "between_tools" });
    expect(opus5!.thinking).toEqual({ type: "disabled" });
    expect(fable).not.toHaveProperty("thinking");
    expect(fable!.max_tokens).toBe(1024 + 4096);
  });

  it("asks a cut-off answer again with more room, but never past the model's output maximum", async () => {
    const srv = await start((req, i) => (i === 0 ? { status: 200, body: anthropicMessage({ model: MODEL, text: "I would prob", stopReason: "max_tokens" }) } : undefined));
    const result = await generator(srv.url, { maxOutputTokens: 40_000 }).generate(request);
    expect(result.text).toMatch(/^ok from/);
    expect(bodies(srv).map((b) => b.max_tokens)).toEqual([40_000, 64_000]);
  });

  it("does not take a model_context_window_exceeded stop as an answer, and does not ask again", async () => {
    const srv = await start((req) => anthropicContextWindowExceeded(req, "I would probably buy"));
    const err = await failureOf(generator(srv.url).generate(request));
    expect(err).toMatchObject({ kind: "bad_response", reason: "the answer was stopped before it was complete (stop reason model_context_window_exceeded)" });
    expect(srv.requests).toHaveLength(1);
  });

  it("asks again after a tool_use stop, since we offer no tools and another draw may answer", async () => {
    const srv = await start((req, i) => (i === 0 ? { status: 200, body: anthropicMessage({ model: MODEL, text: "Let me look that up.", stopReason: "tool_use" }) } : undefined));
    const result = await generator(srv.url).generate(request);
    expect(result.text).toMatch(/^ok from/);
    expect(srv.requests).toHaveLength(2);
  });

  it("reports a refusal stop as refused, without asking again", async () => {
    const srv = await start((req) => anthropicRefusal(req));
    const err = await failureOf(generator(srv.url).generate(request));
    expect(err).toMatchObject({ kind: "refused", reason: "stop reason refusal" });
    expect(srv.requests).toHaveLength(1);
  });

  it("maps a 400 for an unsupported parameter to a misconfiguration whose fix names the options setting, never to a refusal", async () => {
    const srv = await start(() => ({ status: 400, body: anthropicErrorBody("invalid_request_error", '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.') }));
    const err = await failureOf(generator(srv.url, { settings: { model: "ADRANK_GENERATORS", key: "ANTHROPIC_API_KEY", options: "ANTHROPIC_THINKING_BUDGET" } }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", status: 400, misconfiguration: { cause: "unsupported_parameter" } });
    expect(err.misconfiguration!.fix).toContain("ANTHROPIC_THINKING_BUDGET");
    expect(describeModelError(err, "scoring model")).toBe("The service's model configuration failed (scoring model, anthropic); the operator has been told what to fix.");
    expect(srv.requests).toHaveLength(1);
  });

  it("maps an image the API cannot process to a content refusal", async () => {
    const srv = await start(() => ({ status: 400, body: anthropicErrorBody("invalid_request_error", "messages.0.content.0.image.source: Could not process image") }));
    const err = await failureOf(generator(srv.url).generate(request));
    expect(err.kind).toBe("refused");
  });

  it("maps not_found_error to an unknown model naming the model setting, and an unknown model gets a start warning", async () => {
    const srv = await start();
    expectedRefusals = 1;
    const err = await failureOf(generator(srv.url, { model: "claude-sonnet-9", settings: { model: "ADRANK_VOTERS" } }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", status: 404, misconfiguration: { cause: "unknown_model" } });
    expect(err.misconfiguration!.fix).toContain("ADRANK_VOTERS");
    expect(srv.refusals.map((r) => r.status)).toEqual([404]);
    // Unknown: no thinking parameter even with a budget, and no temperature.
    expect(bodies(srv)[0]).not.toHaveProperty("thinking");
    expect(anthropicStartupWarnings({ model: "claude-sonnet-9" })).toEqual([expect.stringMatching(/not a model we know/)]);
  });

  it("maps a wrong key to a credentials misconfiguration naming the key setting", async () => {
    const srv = await start();
    expectedRefusals = 1;
    const err = await failureOf(generator(srv.url, { apiKey: "sk-ant-wrong", settings: { key: "ANTHROPIC_API_KEY" } }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", status: 401, misconfiguration: { cause: "credentials" } });
    expect(err.misconfiguration!.fix).toContain("ANTHROPIC_API_KEY");
    expect(err.message).not.toContain("sk-ant-wrong");
  });

  it("waits out a 529 overloaded_error for its retry-after, then answers", async () => {
    const delays: number[] = [];
    const srv = await start((_req, i) => (i === 0 ? anthropicOverloaded(2) : undefined));
    const gen = generator(srv.url, { policy: policy({ sleep: async (ms) => void delays.push(ms) }) });
    const result = await gen.generate(request);
    expect(result.text).toMatch(/^ok from/);
    expect(delays).toEqual([2000]);
    expect(srv.requests).toHaveLength(2);
  });

  it("waits a 429 out until its anthropic-ratelimit-requests-reset when no retry-after is given", async () => {
    const now = Date.parse("2026-11-03T10:00:00Z");
    const delays: number[] = [];
    const srv = await start((_req, i) => (i === 0 ? anthropicRateLimited({ requestsResetAt: new Date(now + 7_000) }) : undefined));
    const gen = generator(srv.url, { policy: policy({ now: () => now, sleep: async (ms) => void delays.push(ms) }) });
    await gen.generate(request);
    expect(delays).toEqual([7000]);
  });

  it("prefers retry-after over the reset headers on a 429", async () => {
    const now = Date.parse("2026-11-03T10:00:00Z");
    const delays: number[] = [];
    const srv = await start((_req, i) => (i === 0 ? anthropicRateLimited({ retryAfterSeconds: 3, requestsResetAt: new Date(now + 30_000) }) : undefined));
    await generator(srv.url, { policy: policy({ now: () => now, sleep: async (ms) => void delays.push(ms) }) }).generate(request);
    expect(delays).toEqual([3000]);
  });

  it("does not retry a monthly spend cap (429 enforced_spend_limit_reached): an exhausted quota", async () => {
    const srv = await start(() => anthropicSpendCapReached());
    const err = await failureOf(generator(srv.url, { settings: { key: "ANTHROPIC_API_KEY" } }).generate(request));
    expect(err).toMatchObject({ kind: "misconfigured", retryable: false, misconfiguration: { cause: "quota_exhausted" } });
    expect(srv.requests).toHaveLength(1);
  });

  it("does not retry past the request's deadline", async () => {
    const now = Date.parse("2026-11-03T10:00:00Z");
    const srv = await start(() => anthropicOverloaded(30));
    const err = await failureOf(generator(srv.url, { policy: policy({ now: () => now, sleep: async () => {} }) }).generate({ ...request, deadlineAt: now + 10_000 }));
    expect(err).toMatchObject({ kind: "unavailable", status: 529 });
    expect(err.message).toMatch(/deadline/);
    expect(srv.requests).toHaveLength(1);
  });

  it("keeps ambient ANTHROPIC_* variables out of the client", async () => {
    const saved = { ...process.env };
    process.env.ANTHROPIC_API_KEY = "sk-ant-ambient";
    process.env.ANTHROPIC_AUTH_TOKEN = "ambient-token";
    process.env.ANTHROPIC_BASE_URL = "http://127.0.0.1:9/";
    process.env.ANTHROPIC_CUSTOM_HEADERS = "x-leak: yes\nanthropic-version: 2023-06-01\nx-api-key: sk-ant-ambient\nAuthorization: Bearer ambient";
    try {
      const srv = await start();
      await generator(srv.url).generate(request);
      const headers = srv.requests[0]!.headers;
      expect(headers["authorization"]).toBe(`Bearer ${KEY}`);
      expect(headers["x-api-key"]).toBeUndefined();
      expect(headers["x-leak"]).toBeUndefined();
      expect(headers["anthropic-version"]).toBe(ANTHROPIC_FAKE_VERSION);
    } finally {
      for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_CUSTOM_HEADERS"]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it("answers with the text blocks only, never the thinking, and reports the thinking tokens inside the output tokens", async () => {
    const srv = await start(() => ({ status: 200, body: message([thinkingBlock, { type: "text", text: "I would buy it." }], "end_turn", { input: 900, output: 30, reasoning: 700 }) }));
    const result = await generator(srv.url, { thinkingBudget: 1024 }).generate(request);
    expect(result.text).toBe("I would buy it.");
    expect(result.usage).toEqual({ inputTokens: 900, outputTokens: 730, reasoningTokens: 700 });
  });

  it("refuses a thinking budget below Anthropic's minimum of 1024, or not below the model's output maximum", () => {
    expect(() => createAnthropicGenerator({ model: MODEL, apiKey: KEY, thinkingBudget: 1000 })).toThrow(RangeError);
    expect(() => createAnthropicGenerator({ model: "claude-haiku-4-5", apiKey: KEY, thinkingBudget: 64_000 })).toThrow(/at most 64000/);
  });
});

describe("the strict Anthropic fake refuses what the real API refuses", () => {
  let server: StrictFake | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const valid = { model: "claude-opus-4-7", max_tokens: 1024, messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] };
  const post = async (body: unknown, headers: Record<string, string> = { "x-api-key": KEY, "anthropic-version": ANTHROPIC_FAKE_VERSION }) => {
    server ??= await startStrictAnthropic({ apiKey: KEY });
    const res = await fetch(`${server.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { type: string; error?: { type: string; message: string }; request_id?: string; content?: unknown } };
  };

  it("answers a valid call with a Message", async () => {
    const res = await post(valid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: "message", stop_reason: "end_turn", usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) } });
  });

  it("refuses a temperature (not a property of MessageCreateParams under 2026-10-21), so it is not permissive", async () => {
    const res = await post({ ...valid, temperature: 0.5 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: "temperature: Extra inputs are not permitted" }, request_id: expect.stringMatching(/^req_/) });
    expect(server!.refusals).toHaveLength(1);
  });

  const cases: Array<[string, unknown, Record<string, string> | undefined, number, string]> = [
    ["no x-api-key", valid, { "anthropic-version": ANTHROPIC_FAKE_VERSION }, 401, "authentication_error"],
    ["a wrong x-api-key", valid, { "x-api-key": "nope", "anthropic-version": ANTHROPIC_FAKE_VERSION }, 401, "authentication_error"],
    ["no anthropic-version", valid, { "x-api-key": KEY }, 400, "invalid_request_error"],
    ["an unknown anthropic-version", valid, { "x-api-key": KEY, "anthropic-version": "2099-01-01" }, 400, "invalid_request_error"],
    ["top_p", { ...valid, top_p: 0.9 }, undefined, 400, "invalid_request_error"],
    ["no max_tokens", { model: valid.model, messages: valid.messages }, undefined, 400, "invalid_request_error"],
    ["a fractional max_tokens", { ...valid, max_tokens: 10.5 }, undefined, 400, "invalid_request_error"],
    ["max_tokens above the model's maximum", { ...valid, max_tokens: 200_000 }, undefined, 400, "invalid_request_error"],
    ["no messages", { model: valid.model, max_tokens: 10 }, undefined, 400, "invalid_request_error"],
    ["no model", { max_tokens: 10, messages: valid.messages }, undefined, 400, "invalid_request_error"],
    ["an unknown model", { ...valid, model: "claude-sonnet-9" }, undefined, 404, "not_found_error"],
    ["enabled thinking on Opus 4.7", { ...valid, max_tokens: 4096, thinking: { type: "enabled", budget_tokens: 2048 } }, undefined, 400, "invalid_request_error"],
    ["adaptive thinking on Sonnet 4.5", { ...valid, model: "claude-sonnet-4-5", thinking: { type: "adaptive" } }, undefined, 400, "invalid_request_error"],
    ["disabled thinking on Fable 5", { ...valid, model: "claude-fable-5", thinking: { type: "disabled" } }, undefined, 400, "invalid_request_error"],
    ["a budget below 1024", { ...valid, model: "claude-sonnet-4-5", thinking: { type: "enabled", budget_tokens: 1000 } }, undefined, 400, "invalid_request_error"],
    ["a budget not below max_tokens", { ...valid, model: "claude-sonnet-4-5", thinking: { type: "enabled", budget_tokens: 1024 } }, undefined, 400, "invalid_request_error"],
    ["an image/bmp image", { ...valid, messages: [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/bmp", data: "Qk0=" } }] }] }, undefined, 400, "invalid_request_error"],
    ["bad base64 image data", { ...valid, messages: [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "not base64!" } }] }] }, undefined, 400, "invalid_request_error"],
    ["png bytes labelled jpeg", { ...valid, messages: [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: Buffer.from(PNG).toString("base64") } }] }] }, undefined, 400, "invalid_request_error"],
  ];
  for (const [what, body, headers, status, type] of cases) {
    it(`refuses ${what} with ${status} ${type}`, async () => {
      const res = await post(body, headers);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ type: "error", error: { type } });
      expect(server!.refusals).toHaveLength(1);
    });
  }

  it("keeps the SDK's request type free of temperature (a compile-time check)", () => {
    const body: MessageCreateParamsNonStreaming = {
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      messages: [{ role: "user", content: "Hi" }],
      // @ts-expect-error temperature is not a property of MessageCreateParamsNonStreaming under anthropic-version 2026-10-21.
      temperature: 0.5,
    };
    expect(body.max_tokens).toBe(10);
  });
});
