import { describe, expect, it } from "vitest";
import { DEFAULT_PRICE_TABLE, priceOf } from "@adrank/ledger-domain";
import { priceTableFrom } from "../src/model-price-file.ts";

// The operator's price file: merged over the default table unless it replaces it, and refused
// with every wrong field named.

describe("priceTableFrom", () => {
  it("replaces and adds entries over the default table, with cached input and cache writes at the input price unless given", () => {
    const table = priceTableFrom({ providers: { aws: "bedrock" }, models: { "openai:gpt-5-mini": { input: 0.2, cachedInput: 0.02, output: 1.6 }, "ollama:*": { input: 0, output: 0 } } });
    if ("error" in table) throw new Error(table.error);
    expect(priceOf(table, "openai:gpt-5-mini")).toEqual({ input: 0.2, cachedInput: 0.02, cacheWrite: 0.2, output: 1.6 });
    expect(priceOf(table, "ollama:llava:13b")).toEqual({ input: 0, cachedInput: 0, cacheWrite: 0, output: 0 });
    expect(priceOf(table, "anthropic:claude-sonnet-4-6")).toEqual(priceOf(DEFAULT_PRICE_TABLE, "anthropic:claude-sonnet-4-6"));
    expect(priceOf(table, "aws:global.anthropic.claude-haiku-4-5-20251001-v1:0")).toEqual({ input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 });
  });

  it("is the whole table when it says replaceDefaults; an empty file is the default table", () => {
    const only = priceTableFrom({ replaceDefaults: true, models: { "openai:gpt-5-mini": { input: 1, output: 2 } } });
    if ("error" in only) throw new Error(only.error);
    expect(Object.keys(only.models)).toEqual(["openai:gpt-5-mini"]);
    expect(priceOf(only, "anthropic:claude-sonnet-4-6")).toBeNull();
    expect(priceTableFrom({})).toEqual(DEFAULT_PRICE_TABLE);
  });

  it("names every wrong field", () => {
    const refused = priceTableFrom({
      replaceDefault: true,
      providers: { AWS: "bedrock" },
      models: { "openai:gpt-5-mini": { input: "cheap", output: 2 }, "gpt-4o": { input: 1, output: 1 }, "openai:gpt-4o": { input: 1.0000001, output: -1, cachedinput: 1 } },
    });
    expect("error" in refused && refused.error.split("; ")).toEqual([
      'providers.AWS: key must be a provider name (lower-case letters, digits and -)',
      expect.stringMatching(/^models\["openai:gpt-5-mini"\]\.input: .*expected number/),
      'models["gpt-4o"]: key must be "provider:model" or "provider:*"',
      expect.stringMatching(/^models\["openai:gpt-4o"\]\.input: must be a number >= 0 with at most 6 decimals/),
      expect.stringMatching(/^models\["openai:gpt-4o"\]\.output: must be a number >= 0 with at most 6 decimals/),
      expect.stringMatching(/^models\["openai:gpt-4o"\]: .*cachedinput/),
      expect.stringMatching(/^\(the file\): .*replaceDefault/),
    ]);
    expect(priceTableFrom([])).toMatchObject({ error: expect.stringMatching(/^\(the file\): /) });
  });
});
