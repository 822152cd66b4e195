import { describe, expect, it } from "vitest";
import { openaiCapabilityRows, openaiModelRules, reasoningEffortFor } from "../src/capabilities/openai.ts";
import { openAIRetryAfterMs, parseResetDuration } from "../src/resilience/openai-rate-limit.ts";

describe("openaiModelRules", () => {
  it("gives gpt-4.1 and gpt-4o a 0–2 temperature, max_completion_tokens and no reasoning_effort", () => {
    for (const model of ["gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "gpt-4o-2024-11-20"]) {
      expect(openaiModelRules(model)).toMatchObject({ known: true, kind: "chat", temperature: { min: 0, max: 2 }, tokenField: "max_completion_tokens", reasoningEfforts: null });
    }
  });

  it("gives the GPT-5 family and the o-series no temperature, max_completion_tokens and their own efforts", () => {
    expect(openaiModelRules("gpt-5-mini")).toMatchObject({ temperature: null, tokenField: "max_completion_tokens", reasoningEfforts: ["minimal", "low", "medium", "high"] });
    expect(openaiModelRules("gpt-5-nano-2025-08-07").reasoningEfforts).toEqual(["minimal", "low", "medium", "high"]);
    expect(openaiModelRules("gpt-5.1").reasoningEfforts).toEqual(["none", "low", "medium", "high"]);
    expect(openaiModelRules("gpt-5.4-mini").reasoningEfforts).toEqual(["none", "low", "medium", "high", "xhigh"]);
    expect(openaiModelRules("gpt-5.6-terra").reasoningEfforts).toContain("max");
    expect(openaiModelRules("gpt-5-pro").reasoningEfforts).toEqual(["high"]);
    for (const model of ["o3", "o4-mini"]) expect(openaiModelRules(model)).toMatchObject({ temperature: null, reasoningEfforts: ["low", "medium", "high"] });
  });

  it("follows the model, not the endpoint: gpt-5 on Azure or a proxy still takes max_completion_tokens", () => {
    expect(openaiModelRules("gpt-5", "azure").tokenField).toBe("max_completion_tokens");
    expect(openaiModelRules("gpt-5", "compatible").tokenField).toBe("max_completion_tokens");
    // OpenRouter documents max_tokens only and maps it itself.
    expect(openaiModelRules("openai/gpt-5-mini", "openrouter")).toMatchObject({ known: true, tokenField: "max_tokens", temperature: null });
  });

  it("knows the text-embedding-3 models and their dimensions", () => {
    expect(openaiModelRules("text-embedding-3-small")).toMatchObject({ kind: "embedding", dimensions: 1536 });
    expect(openaiModelRules("text-embedding-3-large")).toMatchObject({ kind: "embedding", dimensions: 3072 });
  });

  it("knows Ollama's vision models by name without the tag: temperature, max_tokens, no reasoning", () => {
    for (const model of ["llava:13b", "qwen2.5vl:7b", "llama3.2-vision:11b", "gemma3:12b"]) {
      expect(openaiModelRules(model, "ollama")).toMatchObject({ known: true, temperature: { min: 0, max: 2 }, tokenField: "max_tokens", reasoningEfforts: null });
    }
  });

  it("gives an unknown model the safe choice and never throws", () => {
    expect(openaiModelRules("gpt-9-ultra")).toMatchObject({ known: false, temperature: null, tokenField: "max_completion_tokens", reasoningEfforts: null });
    expect(openaiModelRules("mistral:7b", "ollama")).toMatchObject({ known: false, temperature: null, tokenField: "max_tokens" });
    expect(openaiModelRules("", "compatible").known).toBe(false);
  });

  it("sends a configured effort only when the model lists it", () => {
    expect(reasoningEffortFor(openaiModelRules("gpt-5.1"), "minimal")).toBeNull();
    expect(reasoningEffortFor(openaiModelRules("gpt-5"), "minimal")).toBe("minimal");
    expect(reasoningEffortFor(openaiModelRules("gpt-4.1"), "low")).toBeNull();
  });

  it("has a capability row for every family", () => {
    const families = openaiCapabilityRows().map((r) => r.family);
    expect(families).toEqual(expect.arrayContaining(["gpt-4.1", "gpt-4o", "gpt-5", "o-series", "text-embedding-3-small", "llava", "qwen2.5-vl"]));
  });
});

describe("reading OpenAI's rate-limit reset durations", () => {
  it.each([
    ["28s", 28_000],
    ["6m0s", 360_000],
    ["120ms", 120],
    ["1h2m3.5s", 3_723_500],
    ["0.5s", 500],
    ["2", 2_000],
  ])("parses %s as %d ms", (text, ms) => {
    expect(parseResetDuration(text)).toBe(ms);
  });

  it.each(["", "soon", "5 minutes", "-1s"])("refuses %j", (text) => {
    expect(parseResetDuration(text)).toBeUndefined();
  });

  const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

  it("prefers retry-after-ms and retry-after to the reset headers", () => {
    expect(openAIRetryAfterMs(headers({ "retry-after-ms": "1234", "x-ratelimit-reset-tokens": "28s" }), 0)).toBe(1234);
    expect(openAIRetryAfterMs(headers({ "retry-after": "3", "x-ratelimit-reset-tokens": "28s" }), 0)).toBe(3000);
  });

  it("takes the reset of the limit that ran out, else the larger", () => {
    expect(openAIRetryAfterMs(headers({ "x-ratelimit-reset-requests": "6m0s", "x-ratelimit-remaining-requests": "12", "x-ratelimit-reset-tokens": "28s", "x-ratelimit-remaining-tokens": "0" }), 0)).toBe(28_000);
    expect(openAIRetryAfterMs(headers({ "x-ratelimit-reset-requests": "1s", "x-ratelimit-reset-tokens": "28s" }), 0)).toBe(28_000);
    expect(openAIRetryAfterMs(headers({}), 0)).toBeUndefined();
  });
});
