import type { AudienceRankingAnswer, AudiencesAnswer, RankedAsset } from "./answers.ts";

// One ranking across audiences as the API could answer it, for the playground's unit tests:
// three images, three audiences; Bargain hunters and Skeptics swap spring-sale and
// summer-launch beyond noise, autumn-promo failed for Skeptics, and Skeptics and Everyone else
// scored alike.

const SPRING = { asset_index: 0, asset_id: "spring-sale.png", asset_url: "data:spring" };
const SUMMER = { asset_index: 1, asset_id: "summer-launch.png", asset_url: "data:summer" };
const AUTUMN = { asset_index: 2, asset_id: "autumn-promo.png", asset_url: "data:autumn" };

const ranked = (rank: number, ref: { asset_id: string; asset_url: string }, score: number): RankedAsset => ({
  rank, asset_id: ref.asset_id, asset_url: ref.asset_url, score, confidence: "medium", rationale: `Why ${ref.asset_id} scored ${score}`, panel_outcome: null,
});

const ranking = (audience: string, rows: RankedAsset[], errors: AudienceRankingAnswer["errors"] = []): AudienceRankingAnswer => ({
  audience,
  audience_id: null,
  ranked: rows,
  errors,
  // Each audience's own balance is what was left at its share's turn, not after the request.
  summary: { credits_used: rows.length, credits_remaining: 7, models: { generators: ["sim:generator"], embedder: "sim:embedder", voters: [], simulated: true }, warnings: [] },
});

const score = (audience: string, s: number | null, rank: number | null) => ({ audience, score: s, score_before_refine: s, rank });

export const AUDIENCES_ANSWER: AudiencesAnswer = {
  by_audience: [
    ranking("Bargain hunters", [ranked(1, SPRING, 3.9), ranked(2, SUMMER, 3.2), ranked(3, AUTUMN, 2.5)]),
    ranking("Skeptics", [ranked(1, SUMMER, 3.6), ranked(2, SPRING, 2.8)], [{ asset_id: AUTUMN.asset_id, asset_url: AUTUMN.asset_url, error: "The image could not be read." }]),
    ranking("Everyone else", [ranked(1, SUMMER, 3.3), ranked(2, SPRING, 3.1), ranked(3, AUTUMN, 3.0)]),
  ],
  comparison: [
    { ...SPRING, scores: [score("Bargain hunters", 3.9, 1), score("Skeptics", 2.8, 2), score("Everyone else", 3.1, 2)], spread: 1.1, best_audience: "Bargain hunters", worst_audience: "Skeptics" },
    { ...SUMMER, scores: [score("Bargain hunters", 3.2, 2), score("Skeptics", 3.6, 1), score("Everyone else", 3.3, 1)], spread: 0.4, best_audience: "Skeptics", worst_audience: "Bargain hunters" },
    { ...AUTUMN, scores: [score("Bargain hunters", 2.5, 3), score("Skeptics", null, null), score("Everyone else", 3.0, 3)], spread: 0.5, best_audience: "Everyone else", worst_audience: "Bargain hunters" },
  ],
  reversals: [
    {
      asset_a: SPRING,
      asset_b: SUMMER,
      prefers_a: { audience: "Bargain hunters", score_a: 3.9, score_b: 3.2, gap: 0.7, p_order: 0.99 },
      prefers_b: { audience: "Skeptics", score_a: 2.8, score_b: 3.6, gap: 0.8, p_order: 0.99 },
      swing: 1.5,
    },
  ],
  audience_sensitivity: [
    { audience_a: "Bargain hunters", audience_b: "Skeptics", assets_compared: 2, rank_correlation: -1, largest_score_change: 1.1, persona_made_no_difference: false },
    { audience_a: "Bargain hunters", audience_b: "Everyone else", assets_compared: 3, rank_correlation: 0.5, largest_score_change: 0.8, persona_made_no_difference: false },
    { audience_a: "Skeptics", audience_b: "Everyone else", assets_compared: 2, rank_correlation: 1, largest_score_change: 0.3, persona_made_no_difference: true },
  ],
  summary: {
    audiences: ["Bargain hunters", "Skeptics", "Everyone else"],
    credits_used: 8,
    credits_remaining: 40,
    models: { generators: ["sim:generator"], embedder: "sim:embedder", voters: [], simulated: true },
    warnings: [
      { code: "simulated", message: "The offline sim model answered." },
      { code: "persona_made_no_difference", message: "Skeptics and Everyone else scored every asset alike within noise." },
      { code: "batch_not_separated", message: "Everyone else's scores differ by no more than the repetitions' own noise." },
    ],
  },
};
