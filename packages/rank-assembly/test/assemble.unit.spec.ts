import { describe, expect, it } from "vitest";
import { RankResponse } from "@adrank/contracts";
import { METHOD_VERSION } from "@adrank/ssr";
import {
  assembleRankResponse,
  planRank,
  scoreAssets,
  withoutRefinement,
  type AssetOutcome,
  type RankRequestInput,
  type ScoredAsset,
  type Settlement,
} from "../src/index.ts";
import { closePairResult, copyOnly, evaluation, fail, failed, imageOnly, ok, withCopy } from "./fixtures.ts";

const REQUEST_ID = "7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b";

function plan(assets: RankRequestInput["assets"], over: Partial<RankRequestInput> = {}) {
  return planRank({ assets, goal: "click-through-rate", asset_type: "Advertisement", refine_close_pairs: true, ...over }, { name: "Runners" });
}

function assemble(p: ReturnType<typeof plan>, outcomes: AssetOutcome[], settlement?: Partial<Settlement>) {
  const batch = scoreAssets(p, outcomes);
  const response = assembleRankResponse({
    requestId: REQUEST_ID,
    plan: p,
    refinement: withoutRefinement(batch.scored),
    errors: batch.errors,
    settlement: { units: batch.billedEvaluations, creditsUsed: batch.billedEvaluations, creditsRemaining: 100, status: "confirmed", ...settlement },
  });
  // Every assembled body must satisfy the public contract's response schema.
  const checked = RankResponse.safeParse(response);
  if (!checked.success) throw new Error(`not a RankResponse: ${JSON.stringify(checked.error.issues)}`);
  return { batch, response };
}

describe("assembleRankResponse", () => {
  it("sorts by score descending, breaks ties by input order and ranks from 1", () => {
    const p = plan([{ url: "u0" }, { url: "u1", id: "one" }, { url: "u2" }, { url: "u3" }]);
    const { response } = assemble(p, [imageOnly(2.5), imageOnly(4.1), imageOnly(2.5), imageOnly(3)]);
    expect(response.ranked.map((r) => [r.rank, r.asset_url])).toEqual([
      [1, "u1"],
      [2, "u3"],
      [3, "u0"],
      [4, "u2"],
    ]);
    expect(response.ranked[0]!.asset_id).toBe("one");
    expect(response.ranked[1]!.asset_id).toBeNull();
    expect(response.request_id).toBe(REQUEST_ID);
  });

  it("fills every field of an image-only asset", () => {
    const p = plan([{ url: "https://cdn.example/a.png", id: "a", asset_type: "Logo" }]);
    const { response } = assemble(p, [{ kind: "evaluated", layer: "image-only", primary: { ok: true, evaluation: evaluation(3.25, { confidence: "high", entropy: 0.5, topMargin: 0.2, sampleStdDev: 0.1 }) }, ablation: null }]);
    expect(response.ranked).toEqual([
      {
        rank: 1,
        asset_url: "https://cdn.example/a.png",
        asset_id: "a",
        score: 3.25,
        score_before_refine: 3.25,
        score_layer: "image-only",
        asset_type: "Logo",
        copy_context_included: false,
        image_only_score: 3.25,
        copy_lift: 0,
        rationale: "rationale for 3.25",
        product_read: "product read for 3.25",
        confidence: "high",
        panel_outcome: null,
        confidence_details: { entropy: 0.5, top_margin: 0.2, sample_std_dev: 0.1, repetition_count: 3, generator_sample_count: 6 },
        details: {
          probabilities: [0.1, 0.1, 0.2, 0.3, 0.3],
          similarities: [0.5, 0.55, 0.6, 0.65, 0.7],
          repetitionCount: 3,
          generatorSampleCount: 6,
          repetitionScores: [3.15, 3.25, 3.35],
          repetitionScoreRange: 0.2,
        },
        // The last (and only) asset has no neighbour below it.
        p_above_next: null,
        too_close_to_call: false,
        reused: false,
      },
    ]);
  });

  it("reports the ablation score and the copy lift of an asset with copy", () => {
    const p = plan([{ url: "u", copy_context: { adHeadline: "Run further" } }]);
    const { response, batch } = assemble(p, [withCopy(4, ok(3.25))]);
    const [asset] = response.ranked;
    expect(asset).toMatchObject({ score_layer: "full-ad-package", copy_context_included: true, score: 4, image_only_score: 3.25, copy_lift: 0.75 });
    expect(batch.billedEvaluations).toBe(2);
  });

  it("leaves image_only_score and copy_lift out when the ablation failed, and bills 1", () => {
    const p = plan([{ url: "u", copy_context: { adHeadline: "Run further" } }]);
    const { response, batch } = assemble(p, [withCopy(4, fail("The scoring model did not answer in time."))]);
    const [asset] = response.ranked;
    expect(asset!.score_layer).toBe("full-ad-package");
    expect(asset).not.toHaveProperty("image_only_score");
    expect(asset).not.toHaveProperty("copy_lift");
    expect(response.errors).toEqual([]);
    expect(batch.billedEvaluations).toBe(1);
  });

  it("reports null image_only_score and copy_lift for a copy-only asset", () => {
    const p = plan([{ url: "u", copy_context: { adBody: "Sale" } }]);
    const { response } = assemble(p, [copyOnly(2.75)]);
    expect(response.ranked[0]).toMatchObject({ score_layer: "copy-only", copy_context_included: true, image_only_score: null, copy_lift: null });
  });

  it("puts failed assets in errors, in input order, while the rest rank", () => {
    const p = plan([{ url: "bad1", id: "x" }, { url: "good" }, { url: "bad2", copy_context: { adBody: "b" } }]);
    const outcomes: AssetOutcome[] = [
      failed("The image could not be fetched."),
      imageOnly(3),
      { kind: "evaluated", layer: "full-ad-package", primary: fail("The scoring model refused this image or text."), ablation: ok(3) },
    ];
    const { response, batch } = assemble(p, outcomes);
    expect(response.ranked.map((r) => r.asset_url)).toEqual(["good"]);
    expect(response.errors).toEqual([
      { asset_url: "bad1", asset_id: "x", error: "The image could not be fetched." },
      { asset_url: "bad2", asset_id: null, error: "The scoring model refused this image or text." },
    ]);
    expect(response.summary.assets_ranked).toBe(1);
    expect(response.summary.assets_failed).toBe(2);
    expect(batch.billedEvaluations).toBe(1);
  });

  it("answers a batch where every asset failed with empty ranked, every error, and nothing billed", () => {
    const p = plan([{ url: "a" }, { url: "b", copy_context: { adBody: "x" } }]);
    const { response, batch } = assemble(p, [failed("no image"), failed("not an image")], { units: 0, creditsUsed: 0, creditsRemaining: 10 });
    expect(batch.billedEvaluations).toBe(0);
    expect(response.ranked).toEqual([]);
    expect(response.errors).toHaveLength(2);
    expect(response.summary).toMatchObject({ assets_ranked: 0, assets_failed: 2, scoring_evaluations: 0, credits_used: 0, credits_remaining: 10 });
  });

  it("treats an asset without any outcome as failed, not as free success", () => {
    const p = plan([{ url: "a" }, { url: "b" }]);
    const { response, batch } = assemble(p, [imageOnly(3)]);
    expect(response.errors.map((e) => e.asset_url)).toEqual(["b"]);
    expect(batch.billedEvaluations).toBe(1);
  });

  it("writes the summary from the plan and the settlement", () => {
    const p = plan([{ url: "a" }, { url: "b", copy_context: { adBody: "x" } }], { campaign_type: "stories" });
    const { response, batch } = assemble(p, [imageOnly(3), withCopy(3.5, ok(3))], { units: 3, creditsUsed: 3, creditsRemaining: 97 });
    expect(batch.billedEvaluations).toBe(3);
    expect(response.summary).toEqual({
      goal: "click-through-rate",
      asset_type: "Advertisement",
      platform: "instagram",
      audience: "Runners",
      assets_ranked: 2,
      assets_failed: 0,
      scoring_evaluations: 3,
      evaluations_reused: 0,
      repetitions_per_evaluation: 3,
      generator_samples_per_evaluation: 6,
      close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] },
      credits_used: 3,
      credits_remaining: 97,
      credits_status: "confirmed",
      models: { generators: ["sim:a", "sim:b"], embedder: "sim:embed", voters: [], simulated: true },
      // Repetitions 3.4/3.5/3.6 and 2.9/3/3.1: pooled s² = (0.02 + 0.02) / 4 = 0.01.
      uncertainty: { repetition_noise_sd: 0.1, degrees_of_freedom: 4, adjacent_pairs: 1, too_close_to_call: 0 },
      warnings: [expect.objectContaining({ code: "simulated" })],
      // These fixtures come from a scorer that sent no receipt: the answer claims nothing it was not told.
      method: { version: METHOD_VERSION, prompt_templates: [], reference_sets: [], reference_similarity_limit: null, embedder: null, generators: [], voters: [] },
    });
    // t = 0.5 / (0.1 · √(2/3)) = 6.124 on 4 degrees of freedom: T₄(6.124) = 0.9982.
    expect(response.ranked.map((r) => r.p_above_next)).toEqual([0.9982, null]);
  });

  it("never claims a refinement that did not run, even when the request asked for it", () => {
    const p = plan([{ url: "a" }, { url: "b" }], { refine_close_pairs: true });
    const { response } = assemble(p, [imageOnly(3), imageOnly(3.1)]);
    expect(response.summary.close_pair_refinement).toEqual({ enabled: false, pairs_evaluated: 0, results: [] });
    expect(response.ranked.every((r) => r.panel_outcome === null && r.score === r.score_before_refine)).toBe(true);
  });

  it("ranks by the refined score and keeps the raw one when a refiner adjusted it", () => {
    const p = plan([{ url: "a", id: "a" }, { url: "b", id: "b" }]);
    const batch = scoreAssets(p, [imageOnly(3.2), imageOnly(3.1)]);
    const panel = { winnerAssetId: "b", loserAssetId: "a", flipped: true, votesFor: 4, votesTotal: 5, consistency: 0.8 };
    const swapped: ScoredAsset[] = [
      { ...batch.scored[0]!, score: 3.1, panelOutcome: panel },
      { ...batch.scored[1]!, score: 3.2, panelOutcome: panel },
    ];
    const response = assembleRankResponse({
      requestId: REQUEST_ID,
      plan: p,
      refinement: { assets: swapped, report: { enabled: true, pairs_evaluated: 1, results: [closePairResult("a", "b")] }, usage: [], voterReceipts: [] },
      errors: batch.errors,
      settlement: { units: 2, creditsUsed: 2, creditsRemaining: null, status: "pending" },
    });
    expect(response.ranked.map((r) => [r.asset_id, r.score, r.score_before_refine, r.panel_outcome?.flipped])).toEqual([
      ["b", 3.2, 3.1, true],
      ["a", 3.1, 3.2, true],
    ]);
    expect(response.summary.close_pair_refinement.pairs_evaluated).toBe(1);
    expect(response.summary.credits_remaining).toBeNull();
    // A charge the ledger had not confirmed yet says so, with what it costs (never 0).
    expect(response.summary).toMatchObject({ credits_used: 2, credits_status: "pending" });
  });
});
