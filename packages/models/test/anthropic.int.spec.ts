import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicGenerator, isModelError, type AnthropicOptions } from "../src/index.ts";
import { describeAdapterContract, type Tokens } from "./support/adapter-contract.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";

type MessagesBody = {
  model: string;
  system: string;
  max_tokens: number;
  temperature?: number;
  thinking?: { type: string; budget_tokens?: number };
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
  // The SDK sends the key as x-api-key or as a bearer token depending on its version.
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
  okGenerate: (text) => ({
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: MODEL,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 912, output_tokens: 38 },
  }),
  errorBody: (status) => ({ type: "error", error: { type: errorType[status] ?? "api_error", message: `upstream said ${status}` } }),
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
});

describe("anthropic budget, thinking and temperature on the wire", () => {
  let server: FakeProvider | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const request = { system: "s", user: "u", images: [] };
  const sentBody = async (options: Partial<AnthropicOptions>, req: { maxOutputTokens?: number; temperature?: number } = {}) => {
    server = await startFakeProvider(() => ({ status: 200, body: message([{ type: "text", text: "ok" }], "end_turn", { input: 10, output: 1, reasoning: 0 }) }));
    const gen = createAnthropicGenerator({ model: MODEL, apiKey: KEY, baseURL: server.url, ...options });
    await gen.generate({ ...request, ...req });
    return { gen, body: server.requests[0]!.body as MessagesBody };
  };

  it("without a thinking budget: sends max_tokens as the answer budget, the temperature, and no thinking", async () => {
    const { gen, body } = await sentBody({ temperature: 0.5 });
    expect(gen.temperature).toBe(0.5);
    expect(body.max_tokens).toBe(1024);
    expect(body.temperature).toBe(0.5);
    expect("thinking" in body).toBe(false);
  });

  it("lets a request override the temperature and the answer budget", async () => {
    const { body } = await sentBody({ temperature: 0.5 }, { temperature: 0.2, maxOutputTokens: 300 });
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(300);
  });

  it("with a thinking budget: enables thinking, makes max_tokens the budget plus the answer budget, and omits the temperature", async () => {
    const { gen, body } = await sentBody({ thinkingBudget: 2048, maxOutputTokens: 1000, temperature: 0.5 }, { temperature: 0.9 });
    expect(gen.temperature).toBeNull();
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(body.max_tokens).toBe(3048);
    expect("temperature" in body).toBe(false);
  });

  it("refuses a thinking budget below Anthropic's minimum of 1024", () => {
    expect(() => createAnthropicGenerator({ model: MODEL, apiKey: KEY, thinkingBudget: 1000 })).toThrow(RangeError);
  });

  it("answers with the text blocks only, never the thinking, and reports the thinking tokens inside the output tokens", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: message([thinkingBlock, { type: "text", text: "I would buy it." }], "end_turn", { input: 900, output: 30, reasoning: 700 }) }));
    const gen = createAnthropicGenerator({ model: MODEL, apiKey: KEY, baseURL: server.url, thinkingBudget: 1024 });
    const result = await gen.generate(request);
    expect(result.text).toBe("I would buy it.");
    expect(result.usage).toEqual({ inputTokens: 900, outputTokens: 730, reasoningTokens: 700 });
  });

  it("does not ask again after a refusal even when it came with some text", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: message([{ type: "text", text: "I would" }], "refusal", { input: 900, output: 2, reasoning: 0 }) }));
    const gen = createAnthropicGenerator({ model: MODEL, apiKey: KEY, baseURL: server.url });
    const err = await gen.generate(request).catch((e: unknown) => e);
    expect(isModelError(err) && err.reason).toBe("stop reason refusal");
    expect(server.requests).toHaveLength(1);
  });
});
