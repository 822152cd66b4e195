import { afterEach, describe, expect, it } from "vitest";
import { isModelError, modelsFromEnv, type Generator } from "../src/index.ts";
import { startFakeProvider, type FakeProvider, type RecordedRequest, type Reply } from "./support/fake-provider.ts";

type Body = Record<string, unknown> & { generationConfig?: Record<string, unknown> };

/** One local server that answers each provider's generate call in its own format, with `text`. */
const answerEveryProvider =
  (text: string) =>
  (req: RecordedRequest): Reply => {
    const path = req.path.split("?")[0]!;
    if (path.endsWith("/chat/completions")) {
      return { status: 200, body: { id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } } };
    }
    if (path.endsWith("/messages")) {
      return { status: 200, body: { id: "m", type: "message", role: "assistant", model: "m", content: text ? [{ type: "text", text }] : [], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } };
    }
    return { status: 200, body: { candidates: [{ content: { role: "model", parts: text ? [{ text }] : [] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 } } };
  };

describe("modelsFromEnv on the wire", () => {
  let server: FakeProvider | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const envFor = (url: string, more: Record<string, string> = {}) => ({
    ADRANK_GENERATORS: "openai:gpt-4o-mini,anthropic:claude-sonnet-4-6",
    ADRANK_EMBEDDER: "sim:sim-embed",
    ADRANK_VOTERS: "gemini:gemini-2.5-flash,openai:gpt-4o",
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: "sk-x",
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "sk-ant-x",
    GEMINI_BASE_URL: url,
    GEMINI_API_KEY: "AIza-x",
    MODEL_MAX_RETRIES: "0",
    ...more,
  });
  const bodyOf = async (gen: Generator): Promise<Body> => {
    const before = server!.requests.length;
    await gen.generate({ system: "s", user: "u", images: [] });
    return server!.requests[before]!.body as Body;
  };

  it("sends each seat's temperature, the answer budget and Gemini's default thinking budget", async () => {
    server = await startFakeProvider(answerEveryProvider("ok"));
    const models = modelsFromEnv(envFor(server.url));

    const openai = await bodyOf(models.generators[0]);
    expect(openai).toMatchObject({ max_tokens: 1024, temperature: 0.5 });
    expect("reasoning_effort" in openai).toBe(false);

    const anthropic = await bodyOf(models.generators[1]);
    expect(anthropic).toMatchObject({ max_tokens: 1024, temperature: 1 });
    expect("thinking" in anthropic).toBe(false);

    const gemini = await bodyOf(models.voters[0]!);
    expect(gemini.generationConfig).toMatchObject({ maxOutputTokens: 1024 + 512, temperature: 1, thinkingConfig: { thinkingBudget: 512, includeThoughts: false } });
    expect(await bodyOf(models.voters[1]!)).toMatchObject({ max_tokens: 1024, temperature: 1 });
  });

  it("sends the configured budgets, reasoning effort and thinking, without a temperature where the model refuses one", async () => {
    server = await startFakeProvider(answerEveryProvider("ok"));
    const models = modelsFromEnv(
      envFor(server.url, {
        MODEL_MAX_OUTPUT_TOKENS: "600",
        OPENAI_REASONING_EFFORT: "medium",
        OPENAI_REASONING_BUDGET: "3000",
        ANTHROPIC_THINKING_BUDGET: "2000",
        GEMINI_THINKING_BUDGET: "128",
        ADRANK_GENERATOR_TEMPERATURES: "0.2,0.4",
        ADRANK_VOTER_TEMPERATURE: "0.7",
      }),
    );

    const openai = await bodyOf(models.generators[0]);
    expect(openai).toMatchObject({ max_tokens: 3600, reasoning_effort: "medium" });
    expect("temperature" in openai).toBe(false);

    const anthropic = await bodyOf(models.generators[1]);
    expect(anthropic).toMatchObject({ max_tokens: 2600, thinking: { type: "enabled", budget_tokens: 2000 } });
    expect("temperature" in anthropic).toBe(false);

    expect((await bodyOf(models.voters[0]!)).generationConfig).toMatchObject({ maxOutputTokens: 728, temperature: 0.7, thinkingConfig: { thinkingBudget: 128, includeThoughts: false } });
  });

  it("asks an empty answer again MODEL_ANSWER_RETRIES times", async () => {
    server = await startFakeProvider(answerEveryProvider(""));
    const models = modelsFromEnv(envFor(server.url, { MODEL_ANSWER_RETRIES: "1" }));
    const err = await models.voters[0]!.generate({ system: "s", user: "u", images: [] }).catch((e: unknown) => e);
    expect(isModelError(err) && err.reason).toBe("no text (finish reason STOP)");
    expect(server.requests).toHaveLength(2);
  });
});
