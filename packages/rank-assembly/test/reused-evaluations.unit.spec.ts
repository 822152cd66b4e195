import { describe, expect, it } from "vitest";
import { RankResponse } from "@adrank/contracts";
import {
  assembleRankResponse,
  billedEvaluations,
  billedEvaluationsOfBatch,
  modelUsageOfRank,
  planRank,
  reusedEvaluations,
  scoreAssets,
  withoutRefinement,
  type AssetOutcome,
  type EvaluationOutcome,
} from "../src/index.ts";
import { evaluation, fail, failed, imageOnly, ok } from "./fixtures.ts";

// Evaluations reused across requests (issue 36): a reused evaluation is in the answer, marked,
// and costs nothing: no credit, no model usage.

const usage = [{ model: "sim:a", calls: 6, inputTokens: 100, outputTokens: 10 }];
const kept = (score: number): EvaluationOutcome => ({ ok: true, evaluation: evaluation(score, { usage }), reused: true });
const made = (score: number): EvaluationOutcome => ({ ok: true, evaluation: evaluation(score, { usage }) });
const reusedImage = (score: number): AssetOutcome => ({ kind: "evaluated", layer: "image-only", primary: kept(score), ablation: null });

describe("reused evaluations", () => {
  it("are not billed; only the evaluations made for the request are", () => {
    expect(billedEvaluations(reusedImage(3))).toBe(0);
    expect(billedEvaluations({ kind: "evaluated", layer: "full-ad-package", primary: kept(3.4), ablation: kept(3) })).toBe(0);
    expect(billedEvaluations({ kind: "evaluated", layer: "full-ad-package", primary: kept(3.4), ablation: made(3) })).toBe(1);
    expect(billedEvaluations({ kind: "evaluated", layer: "full-ad-package", primary: made(3.4), ablation: kept(3) })).toBe(1);
    expect(billedEvaluations({ kind: "evaluated", layer: "full-ad-package", primary: kept(3.4), ablation: fail("x") })).toBe(0);
    // Four kept and one new: one credit.
    expect(billedEvaluationsOfBatch([reusedImage(3), reusedImage(3.1), reusedImage(3.2), reusedImage(3.3), imageOnly(2)])).toBe(1);
  });

  it("are counted when they appear in the answer, and not for an asset whose new primary failed", () => {
    expect(reusedEvaluations(reusedImage(3))).toBe(1);
    expect(reusedEvaluations({ kind: "evaluated", layer: "full-ad-package", primary: kept(3.4), ablation: kept(3) })).toBe(2);
    expect(reusedEvaluations({ kind: "evaluated", layer: "full-ad-package", primary: made(3.4), ablation: kept(3) })).toBe(1);
    expect(reusedEvaluations({ kind: "evaluated", layer: "full-ad-package", primary: fail("x"), ablation: kept(3) })).toBe(0);
    expect(reusedEvaluations(imageOnly(3))).toBe(0);
    expect(reusedEvaluations(failed("y"))).toBe(0);
  });

  it("add no model usage: no model was called for them", () => {
    const outcomes: AssetOutcome[] = [reusedImage(3), { kind: "evaluated", layer: "image-only", primary: made(2), ablation: null }, { kind: "evaluated", layer: "full-ad-package", primary: kept(3.4), ablation: made(3) }];
    expect(modelUsageOfRank(outcomes, null)).toEqual([{ model: "sim:a", calls: 12, inputTokens: 200, outputTokens: 20 }]);
    expect(modelUsageOfRank([reusedImage(3)], null)).toEqual([]);
  });

  it("mark their asset reused only when every evaluation of it was reused, and fill the summary", () => {
    const plan = planRank(
      {
        assets: [{ url: "u0" }, { url: "u1" }, { url: "u2", copy_context: { adHeadline: "h" } }, { url: "u3", copy_context: { adHeadline: "h" } }, { url: "u4" }],
        goal: "click-through-rate",
        asset_type: "Advertisement",
        refine_close_pairs: true,
      },
      { name: "Runners" },
    );
    const outcomes: AssetOutcome[] = [
      reusedImage(4),
      imageOnly(3.5),
      { kind: "evaluated", layer: "full-ad-package", primary: kept(3), ablation: kept(2.5) },
      { kind: "evaluated", layer: "full-ad-package", primary: kept(2), ablation: ok(1.5) },
      failed("The image could not be fetched."),
    ];
    const batch = scoreAssets(plan, outcomes);
    expect(batch.billedEvaluations).toBe(2);
    expect(batch.reusedEvaluations).toBe(4);
    const response = assembleRankResponse({
      requestId: "7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b",
      plan,
      refinement: withoutRefinement(batch.scored),
      errors: batch.errors,
      settlement: { units: batch.billedEvaluations, creditsUsed: batch.billedEvaluations, creditsRemaining: 10, status: "confirmed" },
    });
    expect(RankResponse.safeParse(response).success).toBe(true);
    expect(response.ranked.map((r) => [r.asset_url, r.reused])).toEqual([
      ["u0", true],
      ["u1", false],
      ["u2", true],
      ["u3", false],
    ]);
    expect(response.summary).toMatchObject({ scoring_evaluations: 2, evaluations_reused: 4, credits_used: 2, assets_ranked: 4, assets_failed: 1 });
    // A reused asset's scores are the kept evaluation's.
    expect(response.ranked[2]).toMatchObject({ score: 3, image_only_score: 2.5, copy_lift: 0.5 });
  });
});
