import { personaWarnings } from "@adrank/rank-assembly";
import type { z } from "zod";
import type { AssetComparison, AudienceRanking, InlineAudience, RankAudiencesRequest, RankAudiencesResponse, RankedAsset, Reversal } from "@adrank/contracts";
import { NEW_PARENTS_ID, TRAIL_RUNNERS, TRAIL_RUNNERS_ID } from "./audience.ts";
import { HOSTED_IMAGES, SALE_BADGE, SALE_BADGE_PNG, STUDIO_SHOE, STUDIO_SHOE_PNG, SUNRISE_RUN, SUNRISE_RUN_PNG } from "./images.ts";
import { clickThroughRateReceipt } from "./method-receipts.ts";
import type { Examples } from "./named-example.ts";
import { REAL_MODELS, SUNRISE_COPY } from "./rank.ts";
import { rankedAsset, type MeasuredEvaluation } from "./ranked-asset.ts";
import { EXAMPLE_WEBHOOK_URL } from "./webhook.ts";

// Audiences side by side: the three creatives of the rank examples (plus a price-led one) for
// two inline personas built to disagree and the saved trail runners. Each audience's ranking
// is built like a rank answer; the comparison, the reversal and the audience pairs are what
// those rankings give under the rules of the response schema (the docs tests recompute them,
// probabilities included, from the repetition scores shown).

/** Price first: waits for a discount and compares prices before ordering. */
export const BARGAIN_HUNTERS = {
  name: "Bargain hunters",
  description: "Buys running gear only on sale; waits for discount codes and compares prices across three or four shops before ordering.",
  demographics: { incomeLevel: "25k-50k", priceSensitivity: "very-high", shoppingIntent: "comparing", brandFamiliarity: "heard-of" },
} satisfies z.input<typeof InlineAudience>;

/** Distrusts ads: reads reviews first and scrolls past anything that looks like a sales pitch. */
export const SKEPTICS = {
  name: "Skeptics",
  description: "Distrusts advertising and urgency claims; reads reviews before anything else and scrolls past anything that looks like a sales pitch.",
  demographics: { adSkepticism: "very-high", trustBaseline: "low", shoppingIntent: "researching" },
} satisfies z.input<typeof InlineAudience>;

const SALE_COPY = {
  pageName: "Northpeak Outfitters",
  adHeadline: "Last season's trail shoes, 40% off",
  adBody: "Only until Sunday, while sizes last.",
};

const threeAudiences: z.input<typeof RankAudiencesRequest> = {
  assets: [
    { id: SUNRISE_RUN, url: SUNRISE_RUN_PNG, copy_context: SUNRISE_COPY },
    { id: STUDIO_SHOE, url: STUDIO_SHOE_PNG },
    { id: SALE_BADGE, url: SALE_BADGE_PNG, copy_context: SALE_COPY },
  ],
  audiences: [BARGAIN_HUNTERS, SKEPTICS, { audience_id: TRAIL_RUNNERS_ID }],
  goal: "click-through-rate",
  platform: "instagram",
};

export const rankAudiencesRequestExamples: Examples<z.input<typeof RankAudiencesRequest>> = {
  threeAudiences: {
    summary: "Three creatives, two with ad copy, for two inline audiences and a saved one",
    description:
      "Costs up to 15 scoring evaluations: each audience evaluates the two creatives with copy twice (full ad package and image-only ablation) and the image alone once, 5 per audience. The images are fetched and prepared once for all three audiences.",
    value: threeAudiences,
  },
  savedAudiences: {
    summary: "Hosted banners for two saved audiences",
    description: "Two image-only banners for two audiences saved with createAudience: 4 scoring evaluations.",
    value: {
      assets: [
        { id: "beach-banner", url: HOSTED_IMAGES.beachBanner },
        { id: "mountain-banner", url: HOSTED_IMAGES.mountainBanner },
      ],
      audiences: [{ audience_id: TRAIL_RUNNERS_ID }, { audience_id: NEW_PARENTS_ID }],
      goal: "scroll-stopping",
      asset_type: "Website Banner",
    },
  },
  asynchronous: {
    summary: "The three audiences, asynchronously, with a webhook",
    description: "Answered `202` at once; the result is fetched with getRequest and POSTed to webhook_url when it is done. Credits and the rate limit are checked before the 202.",
    value: { ...threeAudiences, async: true, webhook_url: EXAMPLE_WEBHOOK_URL },
  },
};

type Ranked = z.output<typeof RankedAsset>;
type Ranking = z.output<typeof AudienceRanking>;

const ASSETS = [
  { id: SUNRISE_RUN, url: SUNRISE_RUN_PNG, product_read: "Trail running shoes from Northpeak Outfitters, sold with free 60-day returns." },
  { id: STUDIO_SHOE, url: STUDIO_SHOE_PNG, product_read: "A blue running shoe photographed on a plain studio background." },
  { id: SALE_BADGE, url: SALE_BADGE_PNG, product_read: "A discount on last season's Northpeak trail shoes, announced by a red sale tag." },
] as const;
const [SUNRISE, STUDIO, SALE] = ASSETS;

const ASSET_TYPE = "Social Media Post";
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Scored {
  asset: (typeof ASSETS)[number];
  evaluation: MeasuredEvaluation;
  imageOnlyScore?: number;
  rationale: string;
  p_above_next: number | null;
}

/**
 * One audience's ranking as POST /api/v1/rank would answer it for that audience alone (best
 * first, no panel: every neighbouring pair is 0.30 or more apart), without a request_id of
 * its own. Its credits are its share of the request's charge; the balance is the request's.
 */
function audienceRanking(audience: string, audienceId: string | null, best: readonly Scored[]): Ranking {
  const ranked: Ranked[] = best.map((s, i) => rankedAsset({ rank: i + 1, asset: s.asset, asset_type: ASSET_TYPE, evaluation: s.evaluation, imageOnlyScore: s.imageOnlyScore, rationale: s.rationale, product_read: s.asset.product_read, p_above_next: s.p_above_next }));
  const evaluations = best.reduce((sum, s) => sum + (s.imageOnlyScore === undefined ? 1 : 2), 0);
  const repetitions = ranked.map((a) => a.details.repetitionScores);
  const df = repetitions.reduce((sum, r) => sum + r.length - 1, 0);
  const squares = repetitions.reduce((sum, r) => sum + r.reduce((s, x) => s + (x - mean(r)) ** 2, 0), 0);
  return {
    audience,
    audience_id: audienceId,
    ranked,
    errors: [],
    summary: {
      goal: "click-through-rate",
      asset_type: ASSET_TYPE,
      platform: "instagram",
      audience,
      assets_ranked: ranked.length,
      assets_failed: 0,
      scoring_evaluations: evaluations,
      repetitions_per_evaluation: 3,
      generator_samples_per_evaluation: 6,
      close_pair_refinement: { enabled: true, pairs_evaluated: 0, results: [] },
      credits_used: evaluations,
      credits_remaining: null,
      models: REAL_MODELS,
      uncertainty: { repetition_noise_sd: round(Math.sqrt(squares / df), 4), degrees_of_freedom: df, adjacent_pairs: ranked.length - 1, too_close_to_call: ranked.filter((a) => a.too_close_to_call).length },
      warnings: [],
      method: clickThroughRateReceipt,
    },
  };
}

const bargainHunters = audienceRanking(BARGAIN_HUNTERS.name, null, [
  {
    asset: SALE,
    evaluation: { repetitionScores: [4.02, 3.74, 3.82], probabilities: [0, 0.04, 0.27, 0.48, 0.21], similarities: [0.6, 0.618, 0.704, 0.782, 0.69] },
    imageOnlyScore: 3.44,
    rationale: "The red tag and the 40% in the headline answer the first question this shopper asks, and the Sunday deadline gives a reason to click now rather than wait for a code.",
    p_above_next: 0.9987,
  },
  {
    asset: SUNRISE,
    evaluation: { repetitionScores: [3.18, 3.44, 3.31], probabilities: [0.02, 0.15, 0.41, 0.34, 0.08], similarities: [0.608, 0.666, 0.778, 0.753, 0.649] },
    imageOnlyScore: 3.12,
    rationale: "An inviting run at dawn, but no price in sight; the free 60-day returns are the one line that lowers the risk for someone who waits for deals.",
    p_above_next: 0.999,
  },
  {
    asset: STUDIO,
    evaluation: { repetitionScores: [2.88, 2.62, 2.72], probabilities: [0.06, 0.32, 0.45, 0.16, 0.01], similarities: [0.623, 0.725, 0.778, 0.672, 0.62] },
    rationale: "A clean product shot with no price and no offer: nothing tells a deal hunter that this is worth a look today.",
    p_above_next: null,
  },
]);

const skeptics = audienceRanking(SKEPTICS.name, null, [
  {
    asset: SUNRISE,
    evaluation: { repetitionScores: [3.49, 3.76, 3.61], probabilities: [0, 0.07, 0.36, 0.44, 0.13], similarities: [0.6, 0.631, 0.747, 0.782, 0.666] },
    imageOnlyScore: 3.38,
    rationale: "It shows a real run instead of making claims, and its one promise, free returns for 60 days, is one a doubter can check. Nothing in it reads as pressure.",
    p_above_next: 0.9985,
  },
  {
    asset: SALE,
    evaluation: { repetitionScores: [3.24, 2.98, 3.14], probabilities: [0.03, 0.21, 0.42, 0.28, 0.06], similarities: [0.612, 0.689, 0.778, 0.725, 0.64] },
    imageOnlyScore: 3.41,
    rationale: "The image is clear, but \"only until Sunday\" reads as manufactured urgency to someone who distrusts ads: the copy costs it more than the discount wins back.",
    p_above_next: 0.9961,
  },
  {
    asset: STUDIO,
    evaluation: { repetitionScores: [2.81, 2.58, 2.74], probabilities: [0.06, 0.33, 0.45, 0.15, 0.01], similarities: [0.623, 0.729, 0.778, 0.669, 0.62] },
    rationale: "Honest but inert: a plain product shot gives a skeptic nothing to check and no reason to stop.",
    p_above_next: null,
  },
]);

const trailRunners = audienceRanking(TRAIL_RUNNERS.name, TRAIL_RUNNERS_ID, [
  {
    asset: SUNRISE,
    evaluation: { repetitionScores: [3.71, 3.45, 3.55], probabilities: [0, 0.08, 0.37, 0.43, 0.12], similarities: [0.6, 0.636, 0.754, 0.782, 0.663] },
    imageOnlyScore: 3.36,
    rationale: "Open hills at sunrise match the weekend-trail mindset, and the headline names the outcome this audience wants; the grip claim answers what they compare brands on.",
    p_above_next: 0.9966,
  },
  {
    asset: SALE,
    evaluation: { repetitionScores: [3.02, 3.29, 3.14], probabilities: [0.03, 0.2, 0.42, 0.29, 0.06], similarities: [0.612, 0.685, 0.778, 0.729, 0.64] },
    imageOnlyScore: 3.39,
    rationale: "A discount is welcome when replacing worn shoes, but the ad shows no terrain and no grip, and the deadline adds pressure without a reason to trust the shoe.",
    p_above_next: 0.9978,
  },
  {
    asset: STUDIO,
    evaluation: { repetitionScores: [2.57, 2.8, 2.7], probabilities: [0.07, 0.34, 0.44, 0.14, 0.01], similarities: [0.627, 0.735, 0.778, 0.666, 0.62] },
    rationale: "The shoe is shown clearly but off the trail: no terrain, no price and no offer for someone comparing brands.",
    p_above_next: null,
  },
]);

const BY_AUDIENCE = [bargainHunters, skeptics, trailRunners];

/** Each asset under every audience, in the request's order: spread, and the audiences that score it highest and lowest (earlier wins a tie for best, later for worst). */
function comparisonOf(index: number): z.output<typeof AssetComparison> {
  const asset = ASSETS[index]!;
  const scores = BY_AUDIENCE.map((ranking) => {
    const ranked = ranking.ranked.find((a) => a.asset_id === asset.id)!;
    return { audience: ranking.audience, score: ranked.score, score_before_refine: ranked.score_before_refine, rank: ranked.rank };
  });
  const finals = scores.map((s) => s.score);
  const high = Math.max(...finals);
  const low = Math.min(...finals);
  return {
    asset_index: index,
    asset_id: asset.id,
    asset_url: asset.url,
    scores,
    spread: round(high - low, 2),
    best_audience: scores[finals.indexOf(high)]!.audience,
    worst_audience: scores[finals.lastIndexOf(low)]!.audience,
  };
}

const side = (ranking: Ranking, pOrder: number) => {
  const score = (id: string) => ranking.ranked.find((a) => a.asset_id === id)!.score_before_refine;
  const [a, b] = [score(SUNRISE.id), score(SALE.id)];
  return { audience: ranking.audience, score_a: a, score_b: b, gap: round(Math.abs(a - b), 2), p_order: pOrder };
};

/** The sunrise creative against the sale tag: the bargain hunters' order against another audience's. p_order is over the two audiences' pooled noise (12 degrees of freedom). */
function sunriseAgainstSale(prefersSunrise: Ranking, pSunrise: number, pSale: number): z.output<typeof Reversal> {
  const ref = (index: number) => ({ asset_index: index, asset_id: ASSETS[index]!.id, asset_url: ASSETS[index]!.url });
  const prefers_a = side(prefersSunrise, pSunrise);
  const prefers_b = side(bargainHunters, pSale);
  return { asset_a: ref(0), asset_b: ref(2), prefers_a, prefers_b, swing: round(prefers_a.gap + prefers_b.gap, 2) };
}

const largestChange = (a: Ranking, b: Ranking) =>
  round(Math.max(...a.ranked.map((asset) => Math.abs(asset.score_before_refine - b.ranked.find((other) => other.asset_id === asset.asset_id)!.score_before_refine))), 2);

const sensitivity = (a: Ranking, b: Ranking, rank_correlation: number, persona_made_no_difference: boolean) => ({
  audience_a: a.audience,
  audience_b: b.audience,
  assets_compared: a.ranked.length,
  rank_correlation,
  largest_score_change: largestChange(a, b),
  persona_made_no_difference,
});

const SENSITIVITY = [sensitivity(bargainHunters, skeptics, 0.5, false), sensitivity(bargainHunters, trailRunners, 0.5, false), sensitivity(skeptics, trailRunners, 1, true)];

const sum = (pick: (r: Ranking) => number) => BY_AUDIENCE.reduce((total, r) => total + pick(r), 0);
const evaluations = sum((r) => r.summary.scoring_evaluations);

export const rankAudiencesResponseExamples: Examples<z.output<typeof RankAudiencesResponse>> = {
  threeAudiences: {
    summary: "Three rankings, one reversal between audiences, and two audiences that scored alike",
    description:
      "The answer to the first request example. Bargain hunters put the sale tag first; Skeptics and the saved Weekend trail runners put the sunrise run first and the sale tag second, its deadline copy costing it (copy_lift below 0). Each order is beyond the repetitions' noise, so the sunrise run against the sale tag is a reversal, listed for both audiences, largest swing first. Skeptics and Weekend trail runners scored every creative within noise of each other (a largest change of 0.05): `persona_made_no_difference` is true for that pair and summary.warnings says so. 15 evaluations billed, 5 per audience.",
    value: {
      request_id: "a6e3f0b8-1c47-4d95-8e2a-3b9d7c5f1e04",
      by_audience: BY_AUDIENCE,
      comparison: ASSETS.map((_, index) => comparisonOf(index)),
      reversals: [sunriseAgainstSale(skeptics, 0.9997, 0.9999), sunriseAgainstSale(trailRunners, 0.999, 0.9999)],
      audience_sensitivity: SENSITIVITY,
      summary: {
        goal: "click-through-rate",
        asset_type: ASSET_TYPE,
        platform: "instagram",
        audiences: BY_AUDIENCE.map((r) => r.audience),
        assets_ranked: sum((r) => r.summary.assets_ranked),
        assets_failed: sum((r) => r.summary.assets_failed),
        scoring_evaluations: evaluations,
        repetitions_per_evaluation: 3,
        generator_samples_per_evaluation: 6,
        close_pairs_refined: sum((r) => r.summary.close_pair_refinement.pairs_evaluated),
        credits_used: evaluations,
        credits_remaining: 482,
        credits_status: "confirmed",
        models: REAL_MODELS,
        // The service's own sentence for the flagged pair, from the function that writes it.
        warnings: personaWarnings(SENSITIVITY),
      },
    },
  },
};
