import { afterEach, describe, expect, it } from "vitest";
import sharp from "sharp";
import { BedrockRuntimeClient, ConverseCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { createAnthropicGenerator, createBedrockGenerator, createGeminiGenerator, createOpenAICompatibleGenerator, createSimGenerator, type GenerateRequest } from "../src/index.ts";
import { promptCacheKey } from "../src/adapters/openai-compatible.ts";
import { startStrictAnthropic } from "./support/strict/anthropic.ts";
import { startStrictBedrock } from "./support/strict/bedrock.ts";
import { startStrictGemini } from "./support/strict/gemini.ts";
import { OPENAI_FAKE_KEY, startStrictOpenAI } from "./support/strict/openai.ts";
import { imageSize } from "./support/strict/image-size.ts";
import { claudeImageTokens, geminiImageTokens, openaiImageTokens } from "./support/strict/image-tokens.ts";
import type { StrictFake } from "./support/strict/strict-fake.ts";

/**
 * Prompt caching through each adapter, against the strict fakes' documented cache accounting:
 * where the stable prefix ends (breakpoint, cachePoint, the image before the text), how the
 * usage is normalized (inputTokens is every prompt token, the cache counts parts of it), and a
 * repeat call reading the cache once the first has been answered.
 */

let fakes: StrictFake[] = [];
afterEach(async () => {
  for (const f of fakes) expect(f.refusals).toEqual([]);
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});
const keep = <F extends StrictFake>(fake: F): F => (fakes.push(fake), fake);

/** A normalized creative as the gateway sends it: 1024 x 1024 JPEG. */
const image = async (hue = 200) =>
  new Uint8Array(await sharp({ create: { width: 1024, height: 1024, channels: 3, background: { r: hue, g: 120, b: 60 } } }).jpeg({ quality: 85 }).toBuffer());

const SYSTEM = "You role-play one consumer reacting honestly to a piece of marketing. ".repeat(12);
const request = (bytes: Uint8Array, user: string): GenerateRequest => ({ system: SYSTEM, user, images: [{ bytes, mime: "image/jpeg" }] });

describe("the fakes' image token formulas", () => {
  it("read the size from the header and count as each provider documents", async () => {
    const bytes = Buffer.from(await image());
    expect(imageSize(bytes)).toEqual({ width: 1024, height: 1024 });
    expect(imageSize(await sharp(bytes).resize(819, 1024).png().toBuffer())).toEqual({ width: 819, height: 1024 });
    expect(imageSize(await sharp(bytes).resize(576, 1024).webp().toBuffer())).toEqual({ width: 576, height: 1024 });
    // The guides' own examples: 1024 x 1024 high detail on gpt-4o is 765 tokens; 1024 x 1024 on
    // gpt-4.1-mini is 1024 patches x 1.62; a 1000 x 1000 image on Claude is about 1334 tokens.
    expect(openaiImageTokens("gpt-4o", 1024, 1024)).toBe(765);
    expect(openaiImageTokens("gpt-4.1-mini", 1024, 1024)).toBe(1659);
    expect(claudeImageTokens(1000, 1000)).toBe(1334);
    expect(geminiImageTokens(1024, 1024)).toBe(4 * 258);
    expect(geminiImageTokens(300, 300)).toBe(258);
  });
});

describe("OpenAI: automatic prefix caching", () => {
  it("sends the image before the text and a prompt_cache_key of the stable prefix, and reads cached_tokens on a repeat", async () => {
    const fake = keep(await startStrictOpenAI());
    const gen = createOpenAICompatibleGenerator({ model: "gpt-4.1-mini", apiKey: OPENAI_FAKE_KEY, baseURL: fake.url, flavor: "openai" });
    const bytes = await image();
    const first = await gen.generate(request(bytes, "Would you buy it? (1 of 3)"));
    const second = await gen.generate(request(bytes, "Would you buy it? Think it over. (2 of 3)"));
    const body = fake.requests[1]!.body as { prompt_cache_key: string; messages: Array<{ role: string; content: Array<{ type: string }> }> };
    expect(body.messages[1]!.content.map((p) => p.type)).toEqual(["image_url", "text"]);
    expect(body.prompt_cache_key).toBe(promptCacheKey(request(bytes, "")));
    expect((fake.requests[0]!.body as { prompt_cache_key: string }).prompt_cache_key).toBe(body.prompt_cache_key);
    const [a, b] = fake.promptCache.accounts;
    expect(first.usage).toMatchObject({ inputTokens: a!.promptTokens, cachedInputTokens: 0 });
    // The system text and the image, rounded down to a 128-token step.
    expect(b!.cachedTokens).toBeGreaterThanOrEqual(1024);
    expect(b!.cachedTokens % 128).toBe(0);
    expect(second.usage).toMatchObject({ inputTokens: b!.promptTokens, cachedInputTokens: b!.cachedTokens });
    expect(gen.cachesPrompts).toBe(true);
  });

  it("sends no prompt_cache_key to a server that is not OpenAI's, and holds no call back there", async () => {
    const fake = keep(await startStrictOpenAI());
    const gen = createOpenAICompatibleGenerator({ model: "gpt-4.1-mini", apiKey: OPENAI_FAKE_KEY, baseURL: fake.url, flavor: "compatible" });
    await gen.generate(request(await image(), "Would you buy it?"));
    expect(fake.requests[0]!.body).not.toHaveProperty("prompt_cache_key");
    expect(gen.cachesPrompts).toBe(false);
  });

  it("caches nothing for a call in flight: an entry is readable only once its writer has been answered", async () => {
    const fake = keep(await startStrictOpenAI({ answerDelayMs: 80 }));
    const gen = createOpenAICompatibleGenerator({ model: "gpt-4.1-mini", apiKey: OPENAI_FAKE_KEY, baseURL: fake.url, flavor: "openai" });
    const bytes = await image();
    const together = await Promise.all([gen.generate(request(bytes, "one")), gen.generate(request(bytes, "two"))]);
    expect(together.map((r) => r.usage?.cachedInputTokens)).toEqual([0, 0]);
    const after = await gen.generate(request(bytes, "three"));
    expect(after.usage?.cachedInputTokens).toBeGreaterThan(0);
  });
});

describe("Anthropic: a cache_control breakpoint on the image", () => {
  it("marks the image, counts cache reads and writes into inputTokens, and reads the prefix on a repeat", async () => {
    const fake = keep(await startStrictAnthropic());
    const gen = createAnthropicGenerator({ model: "claude-sonnet-4-6", apiKey: "sk-ant-test-0123456789", baseURL: fake.url });
    const bytes = await image();
    const first = await gen.generate(request(bytes, "Would you buy it? (1 of 3)"));
    const second = await gen.generate(request(bytes, "Would you buy it? Think it over. (2 of 3)"));
    const content = (fake.requests[0]!.body as { messages: Array<{ content: Array<{ type: string; cache_control?: unknown }> }> }).messages[0]!.content;
    expect(content.map((b) => [b.type, b.cache_control ?? null])).toEqual([
      ["image", { type: "ephemeral" }],
      ["text", null],
    ]);
    const [a, b] = fake.promptCache.accounts;
    // First: the prefix is written (1.25x), the text after it is plain input; all three make inputTokens.
    expect(a!.writtenTokens).toBeGreaterThan(1024);
    expect(first.usage).toMatchObject({ inputTokens: a!.promptTokens, cachedInputTokens: 0, cacheWriteInputTokens: a!.writtenTokens });
    expect(second.usage).toMatchObject({ inputTokens: b!.promptTokens, cachedInputTokens: a!.writtenTokens, cacheWriteInputTokens: 0 });
    expect(b!.cachedImageTokens).toBe(b!.imageTokens);
    expect(gen.cachesPrompts).toBe(true);
  });

  it("puts the breakpoint on the system text of a text-only call", async () => {
    const fake = keep(await startStrictAnthropic());
    const gen = createAnthropicGenerator({ model: "claude-sonnet-4-6", apiKey: "sk-ant-test-0123456789", baseURL: fake.url });
    await gen.generate({ system: SYSTEM, user: "Would you buy it?", images: [] });
    expect((fake.requests[0]!.body as { system: unknown }).system).toEqual([{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral" } }]);
  });

  it("does not hold calls back on a model whose minimum (4,096 tokens) the prefix never reaches, and reports nothing cached there", async () => {
    const fake = keep(await startStrictAnthropic());
    const gen = createAnthropicGenerator({ model: "claude-haiku-4-5", apiKey: "sk-ant-test-0123456789", baseURL: fake.url });
    const bytes = await image();
    await gen.generate(request(bytes, "one"));
    const again = await gen.generate(request(bytes, "two"));
    expect(again.usage).toMatchObject({ cachedInputTokens: 0, cacheWriteInputTokens: 0 });
    expect(gen.cachesPrompts).toBe(false);
  });

  it("the fake refuses what the API refuses: a fifth breakpoint, a breakpoint on an empty text block, an unknown cache_control field", async () => {
    const fake = await startStrictAnthropic();
    try {
      const send = (body: unknown) => fetch(`${fake.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "sk-ant-test-0123456789", "anthropic-version": "2026-10-21" }, body: JSON.stringify(body) });
      const marked = (text: string, extra: Record<string, unknown> = {}) => ({ type: "text", text, cache_control: { type: "ephemeral", ...extra } });
      const base = { model: "claude-sonnet-4-6", max_tokens: 100 };
      const five = await send({ ...base, messages: [{ role: "user", content: ["a", "b", "c", "d", "e"].map((t) => marked(t)) }] });
      expect(five.status).toBe(400);
      expect(await five.text()).toMatch(/maximum of 4 blocks with cache_control/);
      const empty = await send({ ...base, messages: [{ role: "user", content: [marked(""), { type: "text", text: "x" }] }] });
      expect(await empty.text()).toMatch(/cache_control cannot be set for empty text blocks/);
      const extra = await send({ ...base, messages: [{ role: "user", content: [marked("x", { scope: "global" })] }] });
      expect(await extra.text()).toMatch(/Extra inputs are not permitted/);
      expect(fake.refusals).toHaveLength(3);
    } finally {
      await fake.close();
    }
  });
});

describe("Gemini: implicit caching", () => {
  it("sends the image before the text and reads cachedContentTokenCount when a prompt reaches the model's minimum", async () => {
    const fake = keep(await startStrictGemini());
    const gen = createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: "AIza-test-0123456789", baseURL: fake.url });
    const bytes = await image();
    // A long system text (a persona with a long description) lifts the prompt over 2,048 tokens.
    const long = { ...request(bytes, "Would you buy it?"), system: SYSTEM.repeat(5) };
    await gen.generate(long);
    const second = await gen.generate({ ...long, user: "Would you buy it? Think it over." });
    const parts = (fake.requests[0]!.body as { contents: Array<{ parts: Array<Record<string, unknown>> }> }).contents[0]!.parts;
    expect(parts.map((p) => Object.keys(p)[0])).toEqual(["inlineData", "text"]);
    const b = fake.promptCache.accounts[1]!;
    expect(b.cachedTokens).toBeGreaterThan(0);
    expect(second.usage).toMatchObject({ inputTokens: b.promptTokens, cachedInputTokens: b.cachedTokens });
  });

  it("leaves cachedInputTokens out when the API reports none (a prompt under the minimum), and holds no call back", async () => {
    const fake = keep(await startStrictGemini());
    const gen = createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: "AIza-test-0123456789", baseURL: fake.url });
    const bytes = await image();
    await gen.generate(request(bytes, "one"));
    const again = await gen.generate(request(bytes, "two"));
    expect(again.usage).not.toHaveProperty("cachedInputTokens");
    expect(gen.cachesPrompts).toBe(false);
  });
});

describe("Bedrock: a cachePoint after the image on models that take one", () => {
  const secret = "bedrock/test/secret+key0123456789abcdefXY";
  const connect = async () => keep(await startStrictBedrock({ accessKeyId: "AKIATESTBEDROCK0001", secretAccessKey: secret, region: "eu-central-1" }));
  const generator = (url: string, model: string) => createBedrockGenerator({ model, region: "eu-central-1", credentials: { accessKeyId: "AKIATESTBEDROCK0001", secretAccessKey: secret }, endpoint: url });

  it("places the checkpoint after the image, adds cache reads and writes to inputTokens, and reads the prefix on a repeat", async () => {
    const fake = await connect();
    const gen = generator(fake.url, "eu.anthropic.claude-sonnet-4-5-20250929-v1:0");
    const bytes = await image();
    const first = await gen.generate(request(bytes, "one"));
    const second = await gen.generate(request(bytes, "two"));
    const content = (fake.requests[0]!.body as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages[0]!.content;
    expect(content.map((b) => Object.keys(b)[0])).toEqual(["image", "cachePoint", "text"]);
    expect(content[1]).toEqual({ cachePoint: { type: "default" } });
    const [a, b] = fake.promptCache.accounts;
    expect(first.usage).toMatchObject({ inputTokens: a!.promptTokens, cachedInputTokens: 0, cacheWriteInputTokens: a!.writtenTokens });
    expect(second.usage).toMatchObject({ inputTokens: b!.promptTokens, cachedInputTokens: a!.writtenTokens, cacheWriteInputTokens: 0 });
    expect(gen.cachesPrompts).toBe(true);
  });

  it("the fake refuses a cachePoint for a model without prompt caching, as Converse does", async () => {
    const fake = await startStrictBedrock({ accessKeyId: "AKIATESTBEDROCK0001", secretAccessKey: secret, region: "eu-central-1" });
    try {
      const client = new BedrockRuntimeClient({ region: "eu-central-1", endpoint: fake.url, credentials: { accessKeyId: "AKIATESTBEDROCK0001", secretAccessKey: secret }, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
      const converse = (modelId: string) => client.send(new ConverseCommand({ modelId, messages: [{ role: "user", content: [{ text: SYSTEM }, { cachePoint: { type: "default" } }, { text: "Would you buy it?" }] }] }));
      await expect(converse("us.meta.llama4-maverick-17b-instruct-v1:0")).rejects.toMatchObject({ name: "ValidationException" });
      await expect(converse("eu.anthropic.claude-sonnet-4-5-20250929-v1:0")).resolves.toMatchObject({ stopReason: "end_turn" });
      expect(fake.refusals.map((r) => r.rule)).toEqual([expect.stringMatching(/does not support prompt caching/)]);
    } finally {
      await fake.close();
    }
  });

  it("sends no cachePoint to a model without prompt caching, which the fake would refuse", async () => {
    const fake = await connect();
    const gen = generator(fake.url, "us.meta.llama4-maverick-17b-instruct-v1:0");
    const result = await gen.generate(request(await image(), "one"));
    expect((fake.requests[0]!.body as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages[0]!.content.map((b) => Object.keys(b)[0])).toEqual(["image", "text"]);
    expect(result.usage).not.toHaveProperty("cachedInputTokens");
    expect(gen.cachesPrompts).toBe(false);
  });
});

describe("the sim", () => {
  it("says it caches nothing, so its samples keep starting at once", () => {
    expect(createSimGenerator({ model: "sim-gen-a" }).cachesPrompts ?? false).toBe(false);
  });
});
