import { describe, expect, it } from "vitest";
import { modelsUsedByRank, modelUsageOfRank, planRank, scoreAssets, withoutRefinement, type AssetOutcome, type RefinementOutcome } from "../src/index.ts";
import { closePairResult, evaluation, fail } from "./fixtures.ts";

const plan = (n: number) => planRank({ assets: Array.from({ length: n }, (_, i) => ({ url: `u${i}`, id: `a${i}` })), goal: "click-through-rate", asset_type: "Advertisement", refine_close_pairs: true }, { name: "Runners" });
const real = (score: number, usage = [{ model: "openai:gpt-5-mini", calls: 6, inputTokens: 6000, outputTokens: 900 }]) =>
  evaluation(score, { generatorModels: ["openai:gpt-5-mini", "anthropic:claude-haiku-4-5"], embeddingModel: "openai:text-embedding-3-small", simulated: false, usage });

describe("modelsUsedByRank", () => {
  it("names the generators, embedder and each voter of a mixed refinement panel once, and is honest about the sim", () => {
    const outcomes: AssetOutcome[] = [
      { kind: "evaluated", layer: "image-only", primary: { ok: true, evaluation: real(3.2) }, ablation: null },
      { kind: "evaluated", layer: "image-only", primary: { ok: true, evaluation: real(3.1) }, ablation: null },
    ];
    const batch = scoreAssets(plan(2), outcomes);
    const refined: RefinementOutcome = { assets: batch.scored, report: { enabled: true, pairs_evaluated: 1, results: [closePairResult("a0", "a1", ["gemini:gemini-2.5-flash", "sim:sim-voter"])] }, usage: [], voterReceipts: [] };
    expect(modelsUsedByRank(batch.scored, refined)).toEqual({
      generators: ["openai:gpt-5-mini", "anthropic:claude-haiku-4-5"],
      embedder: "openai:text-embedding-3-small",
      voters: ["gemini:gemini-2.5-flash", "sim:sim-voter"],
      // One sim seat is enough to make the answer simulated.
      simulated: true,
    });
    expect(modelsUsedByRank(batch.scored, withoutRefinement(batch.scored)).simulated).toBe(false);
  });

  it("names nothing and claims no simulation when no asset was scored", () => {
    expect(modelsUsedByRank([], withoutRefinement([]))).toEqual({ generators: [], embedder: null, voters: [], simulated: false });
  });
});

describe("modelUsageOfRank", () => {
  it("sums every evaluation that came back, an unbilled ablation included, and the refinement's votes", () => {
    const usage = (calls: number) => [{ model: "openai:gpt-5-mini", calls, inputTokens: calls * 1000, outputTokens: calls * 150 }];
    const outcomes: Array<AssetOutcome | undefined> = [
      { kind: "evaluated", layer: "full-ad-package", primary: { ok: true, evaluation: real(4, usage(6)) }, ablation: { ok: true, evaluation: real(3.5, usage(6)) } },
      // The primary failed, but its ablation ran and spent tokens.
      { kind: "evaluated", layer: "full-ad-package", primary: fail("The scoring model (openai) is unavailable."), ablation: { ok: true, evaluation: real(2, usage(7)) } },
      { kind: "failed", error: "The image could not be fetched." },
      undefined,
    ];
    const refinement: RefinementOutcome = { assets: [], report: { enabled: true, pairs_evaluated: 1, results: [] }, usage: [{ model: "sim:sim-voter", calls: 5, inputTokens: 0, outputTokens: 0 }], voterReceipts: [] };
    expect(modelUsageOfRank(outcomes, refinement)).toEqual([
      { model: "openai:gpt-5-mini", calls: 19, inputTokens: 19_000, outputTokens: 2_850 },
      { model: "sim:sim-voter", calls: 5, inputTokens: 0, outputTokens: 0 },
    ]);
  });
});
