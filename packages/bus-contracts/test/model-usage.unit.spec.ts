import { describe, expect, it } from "vitest";
import { callUsage, mergeModelUsage, ModelUsage } from "../src/index.ts";

describe("model usage", () => {
  it("sums per model in order of first use, without touching its inputs", () => {
    const first = [callUsage("openai:gpt-5-mini", { inputTokens: 1000, outputTokens: 120 }), callUsage("sim:sim-embed", undefined)];
    const second = [callUsage("openai:gpt-5-mini", { inputTokens: 900, outputTokens: 80 })];
    expect(mergeModelUsage([first, undefined, second])).toEqual([
      { model: "openai:gpt-5-mini", calls: 2, inputTokens: 1900, outputTokens: 200 },
      { model: "sim:sim-embed", calls: 1, inputTokens: 0, outputTokens: 0 },
    ]);
    expect(first[0]).toEqual({ model: "openai:gpt-5-mini", calls: 1, inputTokens: 1000, outputTokens: 120 });
  });

  it("accepts provider:model names with tags and paths, and refuses what is not one", () => {
    for (const model of ["openai:llava:13b", "openai:meta-llama/Llama-3.2-11B-Vision", "gemini:gemini-2.5-flash"]) expect(ModelUsage.safeParse({ model, calls: 1, inputTokens: 0, outputTokens: 0 }).success).toBe(true);
    for (const model of ["gpt-5", "openai:", "openai:two words", "OpenAI:x"]) expect(ModelUsage.safeParse({ model, calls: 1, inputTokens: 0, outputTokens: 0 }).success).toBe(false);
    expect(ModelUsage.safeParse({ model: "sim:a", calls: -1, inputTokens: 0, outputTokens: 0 }).success).toBe(false);
  });

  it("carries cache reads and writes when a provider reports them and sums them per model", () => {
    const cached = callUsage("anthropic:claude-sonnet-4-5", { inputTokens: 1500, outputTokens: 90, cachedInputTokens: 1400, cacheWriteInputTokens: 0 });
    const written = callUsage("anthropic:claude-sonnet-4-5", { inputTokens: 1500, outputTokens: 80, cachedInputTokens: 0, cacheWriteInputTokens: 1400 });
    expect(callUsage("sim:a", { inputTokens: 5, outputTokens: 1 })).toEqual({ model: "sim:a", calls: 1, inputTokens: 5, outputTokens: 1 });
    expect(mergeModelUsage([[cached], [written], [callUsage("sim:a", undefined)]])).toEqual([
      { model: "anthropic:claude-sonnet-4-5", calls: 2, inputTokens: 3000, outputTokens: 170, cachedInputTokens: 1400, cacheWriteInputTokens: 1400 },
      { model: "sim:a", calls: 1, inputTokens: 0, outputTokens: 0 },
    ]);
    expect(ModelUsage.safeParse({ model: "sim:a", calls: 1, inputTokens: 5, outputTokens: 0, cachedInputTokens: -1 }).success).toBe(false);
  });
});
