import { describe, expect, it } from "vitest";
import { studentTCdf } from "@adrank/uncertainty";
import { compareAudiences, inRankOrder, type AudienceRankedScores, type RequestAsset } from "../src/index.ts";

const ASSETS: RequestAsset[] = [0, 1, 2, 3].map((index) => ({ index, url: `https://cdn.example/ad-${index}.png`, assetId: index === 0 ? "hero" : null }));

interface AudienceShape {
  /** Each repetition lies this far either side of the mean (3 repetitions: m − d, m, m + d), so the pooled sd is d. */
  spread?: number;
  /** Repetitions per asset; 1 leaves the noise unknown (df 0). */
  repetitions?: 1 | 3;
  /** Final scores where refinement moved them; the mean elsewhere. */
  final?: Record<number, number>;
}

/** An audience whose asset i got repetition mean means[i] (null: it failed), ranked by final score as POST /api/v1/rank ranks. */
function audience(name: string, means: ReadonlyArray<number | null>, { spread = 0.1, repetitions = 3, final = {} }: AudienceShape = {}): AudienceRankedScores {
  const scored = means.flatMap((m, index) =>
    m === null ? [] : [{ index, score: final[index] ?? m, scoreBeforeRefine: m, repetitionScores: repetitions === 1 ? [m] : [m - spread, m, m + spread] }],
  );
  return { audience: name, ranked: inRankOrder(scored).map((asset, i) => ({ ...asset, rank: i + 1 })) };
}

/** The contract's statistic, written out: T_df(gap / (s·√(2/3))). */
const pOrder = (gap: number, sd: number, df: number) => studentTCdf(gap / (sd * Math.sqrt(2 / 3)), df);

describe("compareAudiences: per-asset comparison", () => {
  const audiences = [
    audience("Runners", [3.0, 4.0, null, 2.0]),
    audience("Retirees", [3.5, 4.0, null, null]),
    audience("Students", [3.5, 4.0, 3.1, 2.5], { final: { 3: 2.6 } }),
  ];
  const { comparison, audience_sensitivity } = compareAudiences(ASSETS, audiences);

  it("lists every request asset in order with one score per audience, nulls where it failed", () => {
    expect(comparison.map((c) => [c.asset_index, c.asset_id, c.asset_url])).toEqual([
      [0, "hero", "https://cdn.example/ad-0.png"],
      [1, null, "https://cdn.example/ad-1.png"],
      [2, null, "https://cdn.example/ad-2.png"],
      [3, null, "https://cdn.example/ad-3.png"],
    ]);
    expect(comparison[3]!.scores).toEqual([
      { audience: "Runners", score: 2.0, score_before_refine: 2.0, rank: 3 },
      { audience: "Retirees", score: null, score_before_refine: null, rank: null },
      { audience: "Students", score: 2.6, score_before_refine: 2.5, rank: 4 },
    ]);
  });

  it("names the best audience (earlier on a tie) and the worst (later on a tie) by final score", () => {
    expect(comparison[0]).toMatchObject({ spread: 0.5, best_audience: "Retirees", worst_audience: "Runners" });
    // Everyone agrees: spread 0, and the tie rules name the first and the last.
    expect(comparison[1]).toMatchObject({ spread: 0, best_audience: "Runners", worst_audience: "Students" });
    // Spread is over final scores: 2.6 − 2.0, not the 2.5 before refinement.
    expect(comparison[3]!.spread).toBeCloseTo(0.6, 12);
    expect(comparison[3]).toMatchObject({ best_audience: "Students", worst_audience: "Runners" });
  });

  it("compares nothing for an asset only one audience scored", () => {
    expect(comparison[2]).toMatchObject({ spread: null, best_audience: null, worst_audience: null });
  });

  it("reports every pair of audiences in request order, counting only assets both scored", () => {
    expect(audience_sensitivity.map((s) => [s.audience_a, s.audience_b, s.assets_compared])).toEqual([
      ["Runners", "Retirees", 2],
      ["Runners", "Students", 3],
      ["Retirees", "Students", 2],
    ]);
  });
});

describe("compareAudiences: reversals", () => {
  it("reports a flip beyond noise in both audiences, with each side's gap and probability", () => {
    // Noise pooled over both audiences: 3 assets × 2·0.1² and 3 × 2·0.2² over 12 df → s² = 0.025.
    const runners = audience("Runners", [3.3, 3.0, 2.0], { spread: 0.1 });
    const retirees = audience("Retirees", [3.0, 3.4, 2.1], { spread: 0.2 });
    const { reversals } = compareAudiences(ASSETS, [runners, retirees]);
    expect(reversals).toHaveLength(1);
    const [r] = reversals;
    expect(r!.asset_a).toEqual({ asset_index: 0, asset_id: "hero", asset_url: "https://cdn.example/ad-0.png" });
    expect(r!.asset_b).toEqual({ asset_index: 1, asset_id: null, asset_url: "https://cdn.example/ad-1.png" });
    expect(r!.prefers_a).toMatchObject({ audience: "Runners", score_a: 3.3, score_b: 3.0 });
    expect(r!.prefers_b).toMatchObject({ audience: "Retirees", score_a: 3.0, score_b: 3.4 });
    expect(r!.prefers_a.gap).toBeCloseTo(0.3, 12);
    expect(r!.prefers_b.gap).toBeCloseTo(0.4, 12);
    expect(r!.swing).toBeCloseTo(0.7, 12);
    expect(r!.prefers_a.p_order).toBeCloseTo(pOrder(0.3, Math.sqrt(0.025), 12), 9);
    expect(r!.prefers_b.p_order).toBeCloseTo(pOrder(0.4, Math.sqrt(0.025), 12), 9);
    expect(r!.prefers_a.p_order).toBeGreaterThanOrEqual(0.95);
    expect(r!.prefers_a.p_order).toBeLessThan(0.99);
  });

  it("names as prefers_a whichever audience ranks the lower-indexed asset higher", () => {
    const { reversals } = compareAudiences(ASSETS, [audience("Runners", [3.0, 3.5]), audience("Retirees", [3.5, 3.0])]);
    expect(reversals.map((r) => [r.prefers_a.audience, r.prefers_b.audience])).toEqual([["Retirees", "Runners"]]);
  });

  it("does not report a flip whose orders are both within noise", () => {
    const runners = audience("Runners", [3.05, 3.0]);
    const retirees = audience("Retirees", [3.0, 3.05]);
    const { reversals, audience_sensitivity } = compareAudiences(ASSETS, [runners, retirees]);
    expect(runners.ranked[0]!.index).not.toBe(retirees.ranked[0]!.index);
    expect(reversals).toEqual([]);
    // The ranks are opposite, yet the personas decided nothing.
    expect(audience_sensitivity[0]!.rank_correlation).toBeCloseTo(-1, 12);
    expect(audience_sensitivity[0]!.persona_made_no_difference).toBe(true);
  });

  it("does not report a flip that is beyond noise in one audience only", () => {
    expect(pOrder(0.5, 0.1, 8)).toBeGreaterThan(0.95);
    expect(pOrder(0.05, 0.1, 8)).toBeLessThan(0.95);
    const { reversals } = compareAudiences(ASSETS, [audience("Runners", [3.5, 3.0]), audience("Retirees", [3.0, 3.05])]);
    expect(reversals).toEqual([]);
  });

  it("does not report a final-rank flip that a panel made against the raw means", () => {
    // The panel put asset 0 on top for Runners, though its mean is 0.5 lower.
    const runners = audience("Runners", [3.0, 3.5], { final: { 0: 3.6 } });
    const retirees = audience("Retirees", [3.0, 3.5]);
    expect(runners.ranked[0]!.index).toBe(0);
    expect(retirees.ranked[0]!.index).toBe(1);
    expect(compareAudiences(ASSETS, [runners, retirees]).reversals).toEqual([]);
  });

  it("puts the largest swing first and equal swings in audience-pair order", () => {
    const { reversals } = compareAudiences(ASSETS, [
      audience("A", [3.5, 3.0]),
      audience("B", [3.0, 3.5]),
      audience("C", [3.0, 4.0]),
      audience("D", [3.0, 3.5]),
    ]);
    expect(reversals.map((r) => [r.prefers_a.audience, r.prefers_b.audience, r.swing])).toEqual([
      ["A", "C", 1.5],
      ["A", "B", 1.0],
      ["A", "D", 1.0],
    ]);
  });

  it("is certain of an order when the repetitions did not vary at all", () => {
    const { reversals } = compareAudiences(ASSETS, [audience("Runners", [3.1, 3.0], { spread: 0 }), audience("Retirees", [3.0, 3.1], { spread: 0 })]);
    expect(reversals.map((r) => [r.prefers_a.p_order, r.prefers_b.p_order])).toEqual([[1, 1]]);
  });
});

describe("compareAudiences: audience sensitivity", () => {
  it("flags identical audiences as a persona that made no difference", () => {
    const means = [3.2, 3.8, 2.9];
    const { audience_sensitivity, reversals } = compareAudiences(ASSETS, [audience("Runners", means), audience("Joggers", means)]);
    expect(audience_sensitivity).toEqual([{ audience_a: "Runners", audience_b: "Joggers", assets_compared: 3, rank_correlation: 1, largest_score_change: 0, persona_made_no_difference: true }]);
    expect(reversals).toEqual([]);
  });

  it("does not flag an audience that shifted every score beyond noise, though the order is the same", () => {
    const { audience_sensitivity } = compareAudiences(ASSETS, [audience("Runners", [3.0, 3.5, 4.0]), audience("Retirees", [3.5, 4.0, 4.5])]);
    expect(audience_sensitivity[0]).toMatchObject({ rank_correlation: 1, largest_score_change: 0.5, persona_made_no_difference: false });
  });

  it("does not flag a pair when one asset differs beyond noise and the rest agree", () => {
    const { audience_sensitivity } = compareAudiences(ASSETS, [audience("Runners", [3.0, 3.5, 4.0]), audience("Retirees", [3.0, 3.5, 3.2])]);
    expect(audience_sensitivity[0]).toMatchObject({ persona_made_no_difference: false });
    expect(audience_sensitivity[0]!.largest_score_change).toBeCloseTo(0.8, 12);
  });

  it("says nothing when the audiences share no scored asset", () => {
    const { audience_sensitivity } = compareAudiences(ASSETS, [audience("Runners", [3.0, null]), audience("Retirees", [null, 3.0])]);
    expect(audience_sensitivity[0]).toEqual({ audience_a: "Runners", audience_b: "Retirees", assets_compared: 0, rank_correlation: null, largest_score_change: null, persona_made_no_difference: false });
  });

  it("has no rank correlation over a single shared asset or when one audience scored all alike", () => {
    const single = compareAudiences(ASSETS, [audience("Runners", [3.0, null]), audience("Retirees", [3.0, 4.0])]).audience_sensitivity[0]!;
    expect(single).toMatchObject({ assets_compared: 1, rank_correlation: null, persona_made_no_difference: true });
    const flat = compareAudiences(ASSETS, [audience("Runners", [3.0, 3.0]), audience("Retirees", [3.0, 4.0])]).audience_sensitivity[0]!;
    expect(flat.rank_correlation).toBeNull();
  });
});

describe("compareAudiences with unknown noise (df 0)", () => {
  const once = { repetitions: 1 } as const;

  it("claims no reversal however large the flip", () => {
    const { reversals } = compareAudiences(ASSETS, [audience("Runners", [4.5, 1.5], once), audience("Retirees", [1.5, 4.5], once)]);
    expect(reversals).toEqual([]);
  });

  it("calls a persona indifferent only when every shared mean is exactly equal", () => {
    const same = compareAudiences(ASSETS, [audience("Runners", [3.2, 3.8, 2.9], once), audience("Joggers", [3.2, 3.8, 2.9], once)]).audience_sensitivity[0]!;
    expect(same).toMatchObject({ rank_correlation: 1, persona_made_no_difference: true });
    const nudged = compareAudiences(ASSETS, [audience("Runners", [3.2, 3.8, 2.9], once), audience("Joggers", [3.2, 3.81, 2.9], once)]).audience_sensitivity[0]!;
    expect(nudged).toMatchObject({ rank_correlation: 1, persona_made_no_difference: false });
  });
});
