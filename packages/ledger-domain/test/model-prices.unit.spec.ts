import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL_PRICES, DEFAULT_PRICE_TABLE, DEFAULT_PRICES_READ_ON, formatUsd, isExactPrice, priceOf, spendOf, uncachedInputTokens, usdOf, type PriceTable } from "../src/index.ts";

// The price table and the spend it gives: pure, so every figure here is exact.

const SONNET = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
const MINI = { input: 0.25, cachedInput: 0.025, cacheWrite: 0.25, output: 2 };

describe("priceOf", () => {
  it("finds a model by provider:model", () => {
    expect(priceOf(DEFAULT_PRICE_TABLE, "anthropic:claude-sonnet-4-6")).toEqual(SONNET);
    expect(priceOf(DEFAULT_PRICE_TABLE, "openai:gpt-5-mini")).toEqual(MINI);
    expect(priceOf(DEFAULT_PRICE_TABLE, "gemini:gemini-2.5-flash")).toEqual({ input: 0.3, cachedInput: 0.03, cacheWrite: 0.3, output: 2.5 });
  });

  it("prices a dated version as its model: Anthropic, OpenAI and Vertex dates, with Bedrock's version after them", () => {
    expect(priceOf(DEFAULT_PRICE_TABLE, "anthropic:claude-sonnet-4-5-20250929")).toEqual(SONNET);
    expect(priceOf(DEFAULT_PRICE_TABLE, "openai:gpt-5-mini-2025-08-07")).toEqual(MINI);
    expect(priceOf(DEFAULT_PRICE_TABLE, "anthropic:claude-sonnet-4-5@20250929")).toEqual(SONNET);
    expect(priceOf(DEFAULT_PRICE_TABLE, "bedrock:global.anthropic.claude-sonnet-4-5-20250929-v1:0")).toEqual(SONNET);
  });

  it("prices Bedrock's geographic profiles as the in-region model, 10 % above global", () => {
    const regional = { input: 3.3, cachedInput: 0.33, cacheWrite: 4.125, output: 16.5 };
    expect(priceOf(DEFAULT_PRICE_TABLE, "bedrock:anthropic.claude-sonnet-4-5-20250929-v1:0")).toEqual(regional);
    expect(priceOf(DEFAULT_PRICE_TABLE, "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")).toEqual(regional);
    expect(priceOf(DEFAULT_PRICE_TABLE, "bedrock:eu.anthropic.claude-sonnet-4-6")).toEqual(regional);
    expect(priceOf(DEFAULT_PRICE_TABLE, "bedrock:global.anthropic.claude-sonnet-4-6")).toEqual(SONNET);
  });

  it("has no price for an unknown model, a version it cannot take off, or a malformed name: null, never 0", () => {
    for (const model of ["openai:llava:13b", "mistral:large", "anthropic:claude-sonnet-4-7", "openai:gpt-5-mini-voter", "bedrock:amazon.titan-embed-text-v2:0", "gpt-5-mini", ":gpt-5-mini"]) {
      expect(priceOf(DEFAULT_PRICE_TABLE, model)).toBeNull();
    }
    expect(priceOf(DEFAULT_PRICE_TABLE, "constructor:x")).toBeNull();
  });

  it("prices every sim model at 0: the simulator is ours and nobody bills it, whatever the table says", () => {
    const free = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 };
    expect(priceOf(DEFAULT_PRICE_TABLE, "sim:sim-voter")).toEqual(free);
    expect(priceOf({ models: {}, providers: {} }, "sim:anything")).toEqual(free);
    expect(priceOf({ models: { "sim:a": MINI }, providers: {} }, "sim:a")).toEqual(free);
  });

  it("takes a provider priced as another, and a provider:* entry for models it has no entry of", () => {
    const table: PriceTable = { models: { ...DEFAULT_MODEL_PRICES, "ollama:*": { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 } }, providers: { aws: "bedrock", local: "ollama" } };
    expect(priceOf(table, "aws:global.anthropic.claude-sonnet-4-5-20250929-v1:0")).toEqual(SONNET);
    expect(priceOf(table, "local:llava:13b")).toEqual({ input: 0, cachedInput: 0, cacheWrite: 0, output: 0 });
    expect(priceOf(table, "bedrock:anthropic.claude-opus-4-6-v1")).toBeNull();
  });

  it("keeps the default table exact and dated", () => {
    expect(DEFAULT_PRICES_READ_ON).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [model, p] of Object.entries(DEFAULT_MODEL_PRICES)) {
      expect(model).toMatch(/^[a-z][a-z0-9-]*:\S+$/);
      expect([p.input, p.cachedInput, p.cacheWrite, p.output].every(isExactPrice), model).toBe(true);
      expect(p.cachedInput, model).toBeLessThanOrEqual(p.input);
      expect(p.cacheWrite, model).toBeGreaterThanOrEqual(p.input);
    }
  });
});

describe("spendOf", () => {
  it("prices uncached input, cached input, cache writes and output each at its own price", () => {
    // 1,000,000 input of which 600,000 read from the cache and 100,000 written to it: 300,000 uncached.
    const u = { inputTokens: 1_000_000, cachedInputTokens: 600_000, cacheWriteInputTokens: 100_000, outputTokens: 10_000 };
    expect(uncachedInputTokens(u)).toBe(300_000);
    // $0.90 + $0.18 + $0.375 + $0.15
    expect(spendOf(u, SONNET)).toBe(1_605_000_000_000n);
    expect(usdOf(spendOf(u, SONNET))).toBe(1.605);
    expect(formatUsd(spendOf(u, SONNET), 2)).toBe("1.61");
  });

  it("prices usage without cache counts as all uncached", () => {
    // One evaluation's six gpt-5-mini calls: 4,812 input at $0.25/M and 310 output at $2/M = $0.001203 + $0.00062.
    expect(spendOf({ inputTokens: 4_812, outputTokens: 310 }, MINI)).toBe(1_823_000_000n);
    expect(usdOf(1_823_000_000n)).toBe(0.001823);
    expect(formatUsd(1_823_000_000n)).toBe("0.001823");
  });

  it("is exact where floating point is not: a million cached gpt-5-mini tokens ten times over", () => {
    // 0.025 * 7 in floating point is 0.17500000000000002; in pico-dollars it is 0.175 exactly.
    expect(spendOf({ inputTokens: 7_000_000, cachedInputTokens: 7_000_000, outputTokens: 0 }, MINI)).toBe(175_000_000_000n);
    let total = 0n;
    for (let i = 0; i < 10; i++) total += spendOf({ inputTokens: 1_000_000, cachedInputTokens: 1_000_000, outputTokens: 0 }, { ...MINI, cachedInput: 0.1 });
    expect(formatUsd(total, 12)).toBe("1.000000000000");
  });

  it("costs 0 for sim and never counts cache beyond the input as negative uncached input", () => {
    expect(spendOf({ inputTokens: 9_000, outputTokens: 900 }, priceOf(DEFAULT_PRICE_TABLE, "sim:sim-gen-a")!)).toBe(0n);
    expect(uncachedInputTokens({ inputTokens: 10, cachedInputTokens: 20, outputTokens: 0 })).toBe(0);
  });

  it("formats pico-dollars rounded half up, large totals exactly", () => {
    expect(formatUsd(1_234_567_500_000n, 6)).toBe("1.234568");
    expect(formatUsd(1_234_567_499_999n, 6)).toBe("1.234567");
    expect(formatUsd(123_456_789_012_345_678_901n, 2)).toBe("123456789.01");
    expect(formatUsd(0n, 4)).toBe("0.0000");
    expect(formatUsd(5_000_000_000_000n, 0)).toBe("5");
  });
});
