import { describe, expect, it } from "vitest";
import { TOO_CLOSE_TO_CALL } from "@adrank/contracts";
import { TOO_CLOSE_HIGH, TOO_CLOSE_LOW } from "@adrank/uncertainty";
import { methodReceiptOf, mergeModelRuns, panelVotesOn, rankedUncertainty, type ScoredAsset } from "../src/index.ts";
import { closePairResult, evaluation } from "./fixtures.ts";

function scored(id: string, repetitionScores: [number, number, number]): ScoredAsset {
  const score = (repetitionScores[0] + repetitionScores[1] + repetitionScores[2]) / 3;
  return { index: Number(id.slice(1)), url: id, assetId: id, assetType: "Advertisement", layer: "image-only", copyIncluded: false, score, scoreBeforeRefine: score, ablation: { kind: "self" }, evaluation: evaluation(score, { repetitionScores }), reused: false, reusedEvaluations: 0, panelOutcome: null };
}

describe("p_above_next", () => {
  it("compares neighbouring means with the batch's pooled noise (hand-worked)", () => {
    // Means 3.2, 3.1, 2.0; each asset's repetitions deviate by ±0.2, so SS = 0.08 per asset,
    // s² = 0.24 / 6 = 0.04, s = 0.2 on 6 df. First pair: t = 0.1 / (0.2 · √(2/3)) = 0.6124,
    // T₆(0.6124) = 0.7186. Second pair: t = 1.1 / 0.1633 = 6.736, T₆ = 0.99974.
    const u = rankedUncertainty([scored("a0", [3.0, 3.2, 3.4]), scored("a1", [2.9, 3.1, 3.3]), scored("a2", [1.8, 2.0, 2.2])], []);
    expect(u.assets.map((a) => a.pAboveNext)).toEqual([0.7186, 0.9997, null]);
    expect(u.assets.map((a) => a.tooCloseToCall)).toEqual([false, false, false]);
    expect(u.summary).toEqual({ repetition_noise_sd: 0.2, degrees_of_freedom: 6, adjacent_pairs: 2, too_close_to_call: 0 });
  });

  it("marks a pair whose probability is between 0.4 and 0.6 too close to call, and counts it", () => {
    const u = rankedUncertainty([scored("a0", [3.0, 3.5, 4.0]), scored("a1", [3.0, 3.48, 3.96]), scored("a2", [1.0, 1.1, 1.2])], []);
    expect(u.assets[0]!.pAboveNext).toBeGreaterThan(0.4);
    expect(u.assets[0]!.pAboveNext).toBeLessThan(0.6);
    expect(u.assets.map((a) => a.tooCloseToCall)).toEqual([true, false, false]);
    expect(u.summary.too_close_to_call).toBe(1);
  });

  it("adds the votes of a panel that ran on exactly that pair as independent evidence", () => {
    // Equal means: the scores say 0.5. The panel chose a1 over a0 4–1: P(θ > ½) = 57/64 = 0.8906,
    // and odds 1 × 8.14 give 0.8906 for a1 above a0.
    const pair = closePairResult("a0", "a1");
    const u = rankedUncertainty([scored("a1", [3.0, 3.1, 3.2]), scored("a0", [3.0, 3.1, 3.2])], [pair]);
    expect(u.assets[0]!.pAboveNext).toBe(0.8906);
    expect(panelVotesOn("a1", "a0", [pair])).toEqual({ forUpper: 4, forLower: 1 });
    expect(panelVotesOn("a1", "a2", [pair])).toBeNull();
  });

  it("uses the contract's bounds for too close to call", () => {
    expect([TOO_CLOSE_LOW, TOO_CLOSE_HIGH]).toEqual([TOO_CLOSE_TO_CALL.low, TOO_CLOSE_TO_CALL.high]);
  });
});

describe("summary.method", () => {
  it("merges what the workers reported: one entry per model and settings with every version seen", () => {
    const gen = (versions: string[]) => ({ model: "openai:gpt-4o", versions, temperature: 0.7, thinking: null });
    const evaluationReceipt = (versions: string[]) => ({
      methodVersion: "ssr-2026-11-26",
      promptHash: "aaaa",
      referenceSets: [{ hash: "s1", meanSimilarity: 0.123456 }],
      similarityLimit: 0.65,
      embedder: { model: "openai:text-embedding-3-small", dimensions: 1536 },
      generators: [gen(versions), { model: "anthropic:claude-sonnet-4-5", versions: ["claude-sonnet-4-5-20250929"], temperature: null, thinking: "thinking.budget_tokens=2048" }],
    });
    const receipt = methodReceiptOf({
      evaluations: [evaluationReceipt(["gpt-4o-2024-08-06"]), evaluationReceipt(["gpt-4o-2024-11-20"]), undefined],
      votes: [{ model: "sim:sim-voter", versions: ["sim-voter"], temperature: null, thinking: null, promptHash: "aaaa" }],
    });
    expect(receipt).toEqual({
      version: "ssr-2026-11-26",
      prompt_templates: ["aaaa"],
      reference_sets: [{ hash: "s1", mean_similarity: 0.1235 }],
      reference_similarity_limit: 0.65,
      embedder: { model: "openai:text-embedding-3-small", dimensions: 1536 },
      generators: [
        { model: "openai:gpt-4o", versions: ["gpt-4o-2024-08-06", "gpt-4o-2024-11-20"], temperature: 0.7, thinking: null },
        { model: "anthropic:claude-sonnet-4-5", versions: ["claude-sonnet-4-5-20250929"], temperature: null, thinking: "thinking.budget_tokens=2048" },
      ],
      voters: [{ model: "sim:sim-voter", versions: ["sim-voter"], temperature: null, thinking: null }],
    });
  });

  it("keeps a model whose settings changed as a separate entry", () => {
    const runs = mergeModelRuns([
      { model: "openai:gpt-4o", versions: ["v1"], temperature: 0.7, thinking: null },
      { model: "openai:gpt-4o", versions: ["v1"], temperature: 1, thinking: null },
    ]);
    expect(runs.map((r) => r.temperature)).toEqual([0.7, 1]);
  });
});
