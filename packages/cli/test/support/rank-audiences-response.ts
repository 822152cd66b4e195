import { RankAudiencesResponse } from "@adrank/contracts";
import type { RankAudiencesResponse as Response } from "@adrank/sdk";

// Rankings across audiences as the API answers them, parsed with the contract's schema so that
// the tests render nothing the server could not send.

export const REQUEST_ID = "9b2d4c6e-1a3f-4e5b-8c7d-0f1e2a3b4c5d";
export const SIM = { generators: ["sim:sim-gen-a", "sim:sim-gen-b"], embedder: "sim:sim-embed", voters: ["sim:sim-voter"], simulated: true };
export const dataUriOf = (name: string) => `data:image/png;base64,${Buffer.from(`png:${name}`).toString("base64")}`;

const round2 = (n: number) => Math.round(n * 100) / 100;

const ranked = (rank: number, image: string, score: number, pAboveNext: number | null) => ({
  rank,
  asset_url: dataUriOf(image),
  asset_id: image,
  score,
  score_before_refine: score,
  score_layer: "image-only",
  asset_type: "Social Media Post",
  copy_context_included: false,
  image_only_score: score,
  copy_lift: 0,
  rationale: `Why ${image} lands where it does.`,
  product_read: "A seasonal sale banner.",
  confidence: "medium",
  panel_outcome: null,
  confidence_details: { entropy: 0.41, top_margin: 0.18, sample_std_dev: 0.08, repetition_count: 3, generator_sample_count: 6 },
  details: { probabilities: [0.05, 0.1, 0.25, 0.35, 0.25], similarities: [0.61, 0.64, 0.7, 0.74, 0.72], repetitionCount: 3, generatorSampleCount: 6, repetitionScores: [score - 0.05, score, score + 0.05], repetitionScoreRange: 0.1 },
  p_above_next: pAboveNext,
  too_close_to_call: pAboveNext !== null && pAboveNext > 0.4 && pAboveNext < 0.6,
});

interface Scenario {
  images: string[];
  /** Per audience, its name, saved id (or null) and each image's score in `images` order. */
  audiences: Array<{ name: string; id?: string; scores: number[] }>;
  reversals?: Array<{ a: number; b: number; prefersA: number; prefersB: number }>;
  /** Pairs of audiences (indices) whose persona made no difference. */
  noDifference?: Array<[number, number]>;
}

/** A whole response from scores alone: rankings, comparison, the reversals and flags given, and a summary; in IMAGE order throughout. */
export function responseOf(scenario: Scenario): Response {
  const { images, audiences } = scenario;
  const rankOf = (scores: number[], i: number) => 1 + scores.filter((s) => s > scores[i]!).length;
  const ref = (i: number) => ({ asset_index: i, asset_id: images[i]!, asset_url: dataUriOf(images[i]!) });
  const side = (j: number, a: number, b: number) => {
    const s = audiences[j]!.scores;
    return { audience: audiences[j]!.name, score_a: s[a]!, score_b: s[b]!, gap: round2(Math.abs(s[a]! - s[b]!)), p_order: 0.999 };
  };
  const flagged = (j: number, k: number) => (scenario.noDifference ?? []).some(([x, y]) => (x === j && y === k) || (x === k && y === j));
  const body = {
    request_id: REQUEST_ID,
    by_audience: audiences.map(({ name, id, scores }) => {
      const order = images.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
      return {
        audience: name,
        audience_id: id ?? null,
        ranked: order.map((i, k) => ranked(k + 1, images[i]!, scores[i]!, k === order.length - 1 ? null : k === 1 ? 0.55 : 0.97)),
        errors: [],
        summary: {
          goal: "purchase-intent",
          asset_type: "Social Media Post",
          platform: null,
          audience: name,
          assets_ranked: images.length,
          assets_failed: 0,
          scoring_evaluations: images.length,
          repetitions_per_evaluation: 3,
          generator_samples_per_evaluation: 6,
          close_pair_refinement: { enabled: true, pairs_evaluated: 0, results: [] },
          credits_used: images.length,
          credits_remaining: 91,
          models: SIM,
          uncertainty: { repetition_noise_sd: 0.05, degrees_of_freedom: 2 * images.length, adjacent_pairs: images.length - 1, too_close_to_call: images.length > 2 ? 1 : 0 },
          warnings: [{ code: "simulated", message: "The offline sim model produced this answer." }],
        },
      };
    }),
    comparison: images.map((_, i) => {
      const scores = audiences.map(({ name, scores: s }) => ({ audience: name, score: s[i]!, score_before_refine: s[i]!, rank: rankOf(s, i) }));
      const values = scores.map((s) => s.score);
      const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
      const worst = scores.reduce((a, b) => (b.score <= a.score ? b : a));
      return { ...ref(i), scores, spread: round2(Math.max(...values) - Math.min(...values)), best_audience: best.audience, worst_audience: worst.audience };
    }),
    reversals: (scenario.reversals ?? []).map(({ a, b, prefersA, prefersB }) => {
      const [x, y] = [side(prefersA, a, b), side(prefersB, a, b)];
      return { asset_a: ref(a), asset_b: ref(b), prefers_a: x, prefers_b: y, swing: round2(x.gap + y.gap) };
    }),
    audience_sensitivity: audiences.flatMap((x, j) =>
      audiences.slice(j + 1).map((y, d) => {
        const k = j + 1 + d;
        const change = Math.max(...images.map((_, i) => Math.abs(x.scores[i]! - y.scores[i]!)));
        const rx = images.map((_, i) => rankOf(x.scores, i));
        const ry = images.map((_, i) => rankOf(y.scores, i));
        const n = images.length;
        const rho = n < 2 ? null : round2(1 - (6 * rx.reduce((sum, r, i) => sum + (r - ry[i]!) ** 2, 0)) / (n * (n * n - 1)));
        return { audience_a: x.name, audience_b: y.name, assets_compared: n, rank_correlation: rho, largest_score_change: round2(change), persona_made_no_difference: flagged(j, k) };
      }),
    ),
    summary: {
      goal: "purchase-intent",
      asset_type: "Social Media Post",
      platform: null,
      audiences: audiences.map((a) => a.name),
      assets_ranked: images.length * audiences.length,
      assets_failed: 0,
      scoring_evaluations: images.length * audiences.length,
      repetitions_per_evaluation: 3,
      generator_samples_per_evaluation: 6,
      close_pairs_refined: 0,
      credits_used: images.length * audiences.length,
      credits_remaining: 91,
      models: SIM,
      warnings: [
        { code: "simulated", message: "The offline sim model produced this answer." },
        ...((scenario.noDifference ?? []).length > 0 ? [{ code: "persona_made_no_difference", message: NO_DIFFERENCE_MESSAGE }] : []),
      ],
    },
  };
  return RankAudiencesResponse.parse(body);
}

export const NO_DIFFERENCE_MESSAGE = "Two audiences scored every asset alike within noise: the personas changed what the models said, not what they decided.";

/**
 * Three creatives for three audiences: Bargain hunters and Skeptics order spring-sale and
 * summer-launch the other way round; Deal seekers score every creative as Bargain hunters do,
 * so their persona made no difference. `names` renames the audiences (hostile or long names).
 */
export function rankAudiencesResponse(names: { bargain?: string; skeptics?: string; deals?: string } = {}): Response {
  return responseOf({
    images: ["spring-sale.png", "summer-launch.png", "autumn-promo.png"],
    audiences: [
      { name: names.bargain ?? "Bargain hunters", scores: [3.9, 3.2, 3.05] },
      { name: names.skeptics ?? "Skeptics", id: "aud_skeptics01", scores: [2.8, 3.6, 3.1] },
      { name: names.deals ?? "Deal seekers", scores: [3.88, 3.22, 3.02] },
    ],
    reversals: [
      { a: 0, b: 1, prefersA: 0, prefersB: 1 },
      { a: 0, b: 1, prefersA: 2, prefersB: 1 },
    ],
    noDifference: [[0, 2]],
  });
}
