import { afterEach, describe, expect, it } from "vitest";
import { isModelError, modelsFromEnv, type Generator } from "../src/index.ts";
import { startStrictAnthropic } from "./support/strict/anthropic.ts";
import { startStrictGemini } from "./support/strict/gemini.ts";
import { startStrictOpenAI } from "./support/strict/openai.ts";
import type { StrictFake, StrictFakeOptions } from "./support/strict/strict-fake.ts";

type Body = Record<string, unknown> & { generationConfig?: Record<string, unknown> };

const KEYS = { openai: "sk-x-0123456789", anthropic: "sk-ant-x-0123", gemini: "AIza-x-0123" };

// modelsFromEnv as the services call it, against the strict fakes of all three built-in
// providers: what the configuration turns into on the wire, and that each provider accepts it.
describe("modelsFromEnv on the wire", () => {
  let fakes: StrictFake[] = [];
  afterEach(async () => {
    const refusals = fakes.flatMap((f) => f.refusals.map((r) => `${r.status}: ${r.rule}`));
    await Promise.all(fakes.map((f) => f.close()));
    fakes = [];
    expect(refusals).toEqual([]);
  });

  const start = async (options: StrictFakeOptions = {}) => {
    const [openai, anthropic, gemini] = await Promise.all([
      startStrictOpenAI({ apiKey: KEYS.openai, ...options }),
      startStrictAnthropic({ apiKey: KEYS.anthropic, ...options }),
      startStrictGemini({ apiKey: KEYS.gemini, ...options }),
    ]);
    fakes = [openai, anthropic, gemini];
    return { openai, anthropic, gemini };
  };
  const envFor = (f: Awaited<ReturnType<typeof start>>, more: Record<string, string> = {}) => ({
    ADRANK_GENERATORS: "openai:gpt-4o-mini,anthropic:claude-sonnet-4-6",
    ADRANK_EMBEDDER: "sim:sim-embed",
    ADRANK_VOTERS: "gemini:gemini-2.5-flash,openai:gpt-4o",
    OPENAI_BASE_URL: f.openai.url,
    OPENAI_API_KEY: KEYS.openai,
    ANTHROPIC_BASE_URL: f.anthropic.url,
    ANTHROPIC_API_KEY: KEYS.anthropic,
    GEMINI_BASE_URL: f.gemini.url,
    GEMINI_API_KEY: KEYS.gemini,
    MODEL_MAX_RETRIES: "0",
    ...more,
  });
  const bodyOf = async (fake: StrictFake, gen: Generator): Promise<Body> => {
    const before = fake.requests.length;
    await gen.generate({ system: "s", user: "u", images: [] });
    return fake.requests[before]!.body as Body;
  };

  it("sends each seat's temperature where the model takes one, the answer budget, and Gemini's default thinking budget", async () => {
    const f = await start();
    const models = modelsFromEnv(envFor(f));

    // An OpenAI model gets max_completion_tokens at any address, a local test server included.
    const openai = await bodyOf(f.openai, models.generators[0]);
    expect(openai).toMatchObject({ max_completion_tokens: 1024, temperature: 0.5 });
    expect("max_tokens" in openai || "reasoning_effort" in openai).toBe(false);

    // Claude takes no temperature under the API version the SDK speaks.
    const anthropic = await bodyOf(f.anthropic, models.generators[1]);
    expect(anthropic).toMatchObject({ max_tokens: 1024 });
    expect("temperature" in anthropic || "thinking" in anthropic).toBe(false);

    const gemini = await bodyOf(f.gemini, models.voters[0]!);
    expect(gemini.generationConfig).toMatchObject({ maxOutputTokens: 1024 + 512, temperature: 1, thinkingConfig: { thinkingBudget: 512, includeThoughts: false } });
    expect(await bodyOf(f.openai, models.voters[1]!)).toMatchObject({ max_completion_tokens: 1024, temperature: 1 });
  });

  it("sends a reasoning effort only to the models that take it, so gpt-4.x and gpt-5 share one configuration", async () => {
    const f = await start();
    const models = modelsFromEnv(
      envFor(f, {
        ADRANK_GENERATORS: "openai:gpt-4.1,openai:gpt-5-mini",
        MODEL_MAX_OUTPUT_TOKENS: "600",
        OPENAI_REASONING_EFFORT: "medium",
        OPENAI_REASONING_BUDGET: "3000",
        ADRANK_GENERATOR_TEMPERATURES: "0.2,0.4",
      }),
    );
    const gpt41 = await bodyOf(f.openai, models.generators[0]);
    expect(gpt41).toMatchObject({ max_completion_tokens: 600, temperature: 0.2 });
    expect("reasoning_effort" in gpt41).toBe(false);
    const gpt5 = await bodyOf(f.openai, models.generators[1]);
    expect(gpt5).toMatchObject({ max_completion_tokens: 3600, reasoning_effort: "medium" });
    expect("temperature" in gpt5).toBe(false);
  });

  it("gives Claude the thinking its model takes: a budget to Haiku 4.5, adaptive to Opus 4.7", async () => {
    const f = await start();
    const models = modelsFromEnv(envFor(f, { ADRANK_GENERATORS: "anthropic:claude-haiku-4-5,anthropic:claude-opus-4-7", MODEL_MAX_OUTPUT_TOKENS: "600", ANTHROPIC_THINKING_BUDGET: "2000", GEMINI_THINKING_BUDGET: "128", ADRANK_VOTER_TEMPERATURE: "0.7" }));
    expect(await bodyOf(f.anthropic, models.generators[0])).toMatchObject({ max_tokens: 2600, thinking: { type: "enabled", budget_tokens: 2000 } });
    expect((await bodyOf(f.anthropic, models.generators[1])).thinking).toEqual({ type: "adaptive" });
    expect((await bodyOf(f.gemini, models.voters[0]!)).generationConfig).toMatchObject({ maxOutputTokens: 728, temperature: 0.7, thinkingConfig: { thinkingBudget: 128, includeThoughts: false } });
  });

  it("sends Gemini 2.0 no thinking configuration at all", async () => {
    const f = await start();
    const models = modelsFromEnv(envFor(f, { ADRANK_VOTERS: "gemini:gemini-2.0-flash" }));
    expect((await bodyOf(f.gemini, models.voters[0]!)).generationConfig).not.toHaveProperty("thinkingConfig");
  });

  it("asks an empty answer again MODEL_ANSWER_RETRIES times", async () => {
    const f = await start({ respond: () => "" });
    const models = modelsFromEnv(envFor(f, { MODEL_ANSWER_RETRIES: "1" }));
    const err = await models.voters[0]!.generate({ system: "s", user: "u", images: [] }).catch((e: unknown) => e);
    expect(isModelError(err) && err.reason).toBe("no text (finish reason STOP)");
    expect(f.gemini.requests).toHaveLength(2);
  });
});
