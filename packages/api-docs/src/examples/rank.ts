import type { z } from "zod";
import type { RankRequest, RankResponse } from "@adrank/contracts";
import { TRAIL_RUNNERS, TRAIL_RUNNERS_ID } from "./audience.ts";
import { HOSTED_IMAGES, SALE_BADGE, SALE_BADGE_PNG, STUDIO_SHOE, STUDIO_SHOE_PNG, SUNRISE_RUN, SUNRISE_RUN_PNG } from "./images.ts";
import { clickThroughRateReceipt, SIMULATED_WARNING, scrollStoppingReceipt, simScrollStoppingReceipt } from "./method-receipts.ts";
import type { Examples } from "./named-example.ts";
import { EXAMPLE_WEBHOOK_URL } from "./webhook.ts";

// Typed with the zod schemas, so an example that breaks the contract fails the typecheck;
// the contract test parses each one as well (refinements such as "one audience" are not types).

/** The sunrise creative's ad copy: the same wherever the examples send it. */
export const SUNRISE_COPY = {
  pageName: "Northpeak Outfitters",
  adHeadline: "Run further this weekend",
  adBody: "Grip that holds on wet rock. Free returns for 60 days.",
};

const inlineAudience: z.input<typeof RankRequest> = {
  assets: [
    { id: SUNRISE_RUN, url: SUNRISE_RUN_PNG, copy_context: SUNRISE_COPY },
    { id: STUDIO_SHOE, url: STUDIO_SHOE_PNG },
  ],
  audience: TRAIL_RUNNERS,
  goal: "click-through-rate",
  platform: "instagram",
};

export const rankRequestExamples: Examples<z.input<typeof RankRequest>> = {
  inlineAudience: {
    summary: "Two creatives, one with ad copy, for an inline audience",
    description: "Costs 3 scoring evaluations: 2 for the creative with copy (full ad package plus its image-only ablation), 1 for the image alone.",
    value: inlineAudience,
  },
  savedAudience: {
    summary: "Hosted banners for a saved audience, without refinement",
    description: "The server fetches https:// images itself. audience_id names an audience saved with createAudience.",
    value: {
      assets: [
        { id: "beach-banner", url: HOSTED_IMAGES.beachBanner },
        { id: "mountain-banner", url: HOSTED_IMAGES.mountainBanner },
      ],
      audience_id: TRAIL_RUNNERS_ID,
      goal: "scroll-stopping",
      asset_type: "Website Banner",
      refine_close_pairs: false,
    },
  },
  reuseEvaluations: {
    summary: "A re-rank after adding one creative, reusing the evaluations already paid for",
    description:
      "The first example's two creatives again, with a third added and reuse_evaluations true. Their three evaluations (same images, copy, audience, goal, asset type, platform and models) are reused: marked `reused: true`, with the earlier scores, not billed and not counted against the rate limit. Only the new creative's one evaluation is made, reserved and billed (scoring_evaluations 1, evaluations_reused 3). Close-pair refinement still runs over all three.",
    value: { ...inlineAudience, assets: [...inlineAudience.assets, { id: SALE_BADGE, url: SALE_BADGE_PNG }], reuse_evaluations: true },
  },
  asynchronous: {
    summary: "The same two creatives, asynchronously, with a webhook",
    description: "Answered `202` at once; the result is fetched with getRequest and POSTed to webhook_url when it is done. Credits and the rate limit are checked before the 202, as for a synchronous request.",
    value: { ...inlineAudience, async: true, webhook_url: EXAMPLE_WEBHOOK_URL },
  },
};

/** The real models the examples' rankings name (no voter: no panel ran). */
export const REAL_MODELS = { generators: ["openai:gpt-5-mini", "gemini:gemini-2.5-flash"], embedder: "openai:text-embedding-3-small", voters: [], simulated: false };
const simModels = { generators: ["sim:sim-gen-a", "sim:sim-gen-b"], embedder: "sim:sim-embed", voters: [], simulated: true };
const SIM_PRODUCT_READ = "The simulated model measures image statistics only and cannot identify the product shown.";

// p_above_next and summary.uncertainty follow from the repetition scores shown (the contract's
// P_ABOVE_NEXT_DESCRIPTION; the docs test recomputes them): the pooled repetition noise s over
// the batch, then T_df((mean − next mean) / (s·√(2/3))), rounded to 4 decimals.

const rankAnswers: Examples<z.output<typeof RankResponse>> = {
  ranked: {
    summary: "Both creatives ranked",
    description:
      "The answer to the first request example. The scores are 0.72 apart, more than the 0.30 of a close pair, so no panel ran. Against repetitions that move by about 0.1 (summary.uncertainty), a lead of 0.72 is near certain: p_above_next 0.9996. No warning applies; summary.method is the receipt of the models and the six reference sets that produced it.",
    value: {
      request_id: "5d0f6c2e-8a4b-4f1e-b3c7-92e1a6d40b58",
      ranked: [
        {
          rank: 1,
          asset_url: SUNRISE_RUN_PNG,
          asset_id: SUNRISE_RUN,
          score: 3.84,
          score_before_refine: 3.84,
          score_layer: "full-ad-package",
          asset_type: "Social Media Post",
          copy_context_included: true,
          image_only_score: 3.41,
          copy_lift: 0.43,
          rationale: "A runner's sunrise on open hills matches the weekend-trail mindset, and the headline names the outcome this audience wants. The grip claim answers the question they compare brands on; the free returns lower the risk of a first order.",
          product_read: "Trail running shoes from Northpeak Outfitters, sold with free 60-day returns.",
          confidence: "medium",
          panel_outcome: null,
          confidence_details: { entropy: 0.71, top_margin: 0.07, sample_std_dev: 0.11, repetition_count: 3, generator_sample_count: 6 },
          details: {
            probabilities: [0.03, 0.08, 0.2, 0.38, 0.31],
            similarities: [0.612, 0.648, 0.701, 0.774, 0.752],
            repetitionCount: 3,
            generatorSampleCount: 6,
            repetitionScores: [3.71, 3.98, 3.83],
            repetitionScoreRange: 0.27,
          },
          p_above_next: 0.9996,
          too_close_to_call: false,
        },
        {
          rank: 2,
          asset_url: STUDIO_SHOE_PNG,
          asset_id: STUDIO_SHOE,
          score: 3.12,
          score_before_refine: 3.12,
          score_layer: "image-only",
          asset_type: "Social Media Post",
          copy_context_included: false,
          image_only_score: 3.12,
          copy_lift: 0,
          rationale: "A clean product shot shows the shoe clearly but gives no reason to click: no terrain, no price and no offer for someone who is comparing brands.",
          product_read: "A blue running shoe photographed on a plain studio background.",
          confidence: "high",
          panel_outcome: null,
          confidence_details: { entropy: 0.58, top_margin: 0.21, sample_std_dev: 0.03, repetition_count: 3, generator_sample_count: 6 },
          details: {
            probabilities: [0.04, 0.19, 0.42, 0.28, 0.07],
            similarities: [0.633, 0.689, 0.742, 0.718, 0.655],
            repetitionCount: 3,
            generatorSampleCount: 6,
            repetitionScores: [3.1, 3.16, 3.1],
            repetitionScoreRange: 0.06,
          },
          p_above_next: null,
          too_close_to_call: false,
        },
      ],
      errors: [],
      summary: {
        goal: "click-through-rate",
        asset_type: "Social Media Post",
        platform: "instagram",
        audience: TRAIL_RUNNERS.name,
        assets_ranked: 2,
        assets_failed: 0,
        scoring_evaluations: 3,
        repetitions_per_evaluation: 3,
        generator_samples_per_evaluation: 6,
        close_pair_refinement: { enabled: true, pairs_evaluated: 0, results: [] },
        credits_used: 3,
        credits_remaining: 497,
        credits_status: "confirmed",
        models: REAL_MODELS,
        uncertainty: { repetition_noise_sd: 0.0987, degrees_of_freedom: 4, adjacent_pairs: 1, too_close_to_call: 0 },
        warnings: [],
        method: clickThroughRateReceipt,
      },
    },
  },
  assetFailed: {
    summary: "One image could not be fetched",
    description: "A per-asset failure is not an HTTP error: the asset is listed in errors, is not billed, and the others are still ranked.",
    value: {
      request_id: "c81a3e07-2f6d-4b9a-a5e4-7d30f1b96c22",
      ranked: [
        {
          rank: 1,
          asset_url: HOSTED_IMAGES.mountainBanner,
          asset_id: "mountain-banner",
          score: 3.56,
          score_before_refine: 3.56,
          score_layer: "image-only",
          asset_type: "Website Banner",
          copy_context_included: false,
          image_only_score: 3.56,
          copy_lift: 0,
          rationale: "A single runner against a wide ridge line reads at a glance and stands out from the product grids around it.",
          product_read: "Outdoor running apparel shown in a mountain landscape.",
          confidence: "medium",
          panel_outcome: null,
          confidence_details: { entropy: 0.69, top_margin: 0.09, sample_std_dev: 0.06, repetition_count: 3, generator_sample_count: 6 },
          details: {
            probabilities: [0.04, 0.1, 0.27, 0.36, 0.23],
            similarities: [0.605, 0.652, 0.719, 0.761, 0.733],
            repetitionCount: 3,
            generatorSampleCount: 6,
            repetitionScores: [3.49, 3.63, 3.56],
            repetitionScoreRange: 0.14,
          },
          p_above_next: null,
          too_close_to_call: false,
        },
      ],
      errors: [{ asset_url: HOSTED_IMAGES.beachBanner, asset_id: "beach-banner", error: "The image URL answered HTTP 404 (Not Found) instead of the image." }],
      summary: {
        goal: "scroll-stopping",
        asset_type: "Website Banner",
        platform: null,
        audience: TRAIL_RUNNERS.name,
        assets_ranked: 1,
        assets_failed: 1,
        scoring_evaluations: 1,
        repetitions_per_evaluation: 3,
        generator_samples_per_evaluation: 6,
        close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] },
        credits_used: 1,
        credits_remaining: 496,
        credits_status: "confirmed",
        models: REAL_MODELS,
        // One asset: no neighbour to be sure about, but its own repetitions still measure the noise.
        uncertainty: { repetition_noise_sd: 0.07, degrees_of_freedom: 2, adjacent_pairs: 0, too_close_to_call: 0 },
        warnings: [],
        method: scrollStoppingReceipt,
      },
    },
  },
  simulatedTooClose: {
    summary: "Three banners scored by the sim model: the top two too close to call",
    description:
      "Three hosted banners ranked with refine_close_pairs false, answered by the offline sim model, so summary.warnings says `simulated`. The first two are 0.01 apart with repetitions that move by about 0.05: p_above_next 0.5892, too close to call, and summary.uncertainty counts that pair. With refinement on, the pair would have gone to a panel, and p_above_next would count its votes too. The third is 0.16 behind the second: p_above_next 0.9954. summary.method shows the sim embedder's six reference sets, each with a mean anchor similarity near 0.19, far below the 0.65 limit.",
    value: {
      request_id: "e2b7d91a-4c08-4f6e-9a35-1d6f0c8b27e4",
      ranked: [
        {
          rank: 1,
          asset_url: HOSTED_IMAGES.mountainBanner,
          asset_id: "mountain-banner",
          score: 3.62,
          score_before_refine: 3.62,
          score_layer: "image-only",
          asset_type: "Website Banner",
          copy_context_included: false,
          image_only_score: 3.62,
          copy_lift: 0,
          rationale: "The contrast is strong and its shape suits website banner slots, which both help with stopping the scroll.",
          product_read: SIM_PRODUCT_READ,
          confidence: "high",
          panel_outcome: null,
          confidence_details: { entropy: 0.56, top_margin: 0.18, sample_std_dev: 0.05, repetition_count: 3, generator_sample_count: 6 },
          details: {
            probabilities: [0, 0.02, 0.38, 0.56, 0.04],
            similarities: [0.006, 0.031, 0.702, 0.868, 0.141],
            repetitionCount: 3,
            generatorSampleCount: 6,
            repetitionScores: [3.68, 3.55, 3.63],
            repetitionScoreRange: 0.13,
          },
          p_above_next: 0.5892,
          too_close_to_call: true,
        },
        {
          rank: 2,
          asset_url: HOSTED_IMAGES.cityBanner,
          asset_id: "city-banner",
          score: 3.61,
          score_before_refine: 3.61,
          score_layer: "image-only",
          asset_type: "Website Banner",
          copy_context_included: false,
          image_only_score: 3.61,
          copy_lift: 0,
          rationale: "The colours are vivid and its shape suits website banner slots, which both help with stopping the scroll.",
          product_read: SIM_PRODUCT_READ,
          confidence: "high",
          panel_outcome: null,
          confidence_details: { entropy: 0.58, top_margin: 0.19, sample_std_dev: 0.05, repetition_count: 3, generator_sample_count: 6 },
          details: {
            probabilities: [0, 0.03, 0.37, 0.56, 0.04],
            similarities: [0.006, 0.04, 0.69, 0.86, 0.13],
            repetitionCount: 3,
            generatorSampleCount: 6,
            repetitionScores: [3.56, 3.67, 3.6],
            repetitionScoreRange: 0.11,
          },
          p_above_next: 0.9954,
          too_close_to_call: false,
        },
        {
          rank: 3,
          asset_url: HOSTED_IMAGES.lakeBanner,
          asset_id: "lake-banner",
          score: 3.45,
          score_before_refine: 3.45,
          score_layer: "image-only",
          asset_type: "Website Banner",
          copy_context_included: false,
          image_only_score: 3.45,
          copy_lift: 0,
          rationale: "The colours are muted, which holds it back for stopping the scroll.",
          product_read: SIM_PRODUCT_READ,
          confidence: "medium",
          panel_outcome: null,
          confidence_details: { entropy: 0.67, top_margin: 0.04, sample_std_dev: 0.02, repetition_count: 3, generator_sample_count: 6 },
          details: {
            probabilities: [0.01, 0.07, 0.42, 0.46, 0.04],
            similarities: [0.012, 0.118, 0.781, 0.803, 0.133],
            repetitionCount: 3,
            generatorSampleCount: 6,
            repetitionScores: [3.47, 3.42, 3.46],
            repetitionScoreRange: 0.05,
          },
          p_above_next: null,
          too_close_to_call: false,
        },
      ],
      errors: [],
      summary: {
        goal: "scroll-stopping",
        asset_type: "Website Banner",
        platform: null,
        audience: TRAIL_RUNNERS.name,
        assets_ranked: 3,
        assets_failed: 0,
        scoring_evaluations: 3,
        repetitions_per_evaluation: 3,
        generator_samples_per_evaluation: 6,
        close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] },
        credits_used: 3,
        credits_remaining: 493,
        credits_status: "confirmed",
        models: simModels,
        uncertainty: { repetition_noise_sd: 0.052, degrees_of_freedom: 6, adjacent_pairs: 2, too_close_to_call: 1 },
        warnings: [SIMULATED_WARNING],
        method: simScrollStoppingReceipt,
      },
    },
  },
};

/** The first answer, sent again with reuse_evaluations (issue 36): the same ranking, every evaluation reused, nothing charged. */
const first = rankAnswers.ranked!.value;

export const rankResponseExamples: Examples<z.output<typeof RankResponse>> = {
  ranked: rankAnswers.ranked!,
  reused: {
    summary: "The same two creatives ranked again, every evaluation reused",
    description:
      "The first request example sent again with reuse_evaluations true, within the keep time: both creatives' evaluations (3) are reused, so the ranking is the first answer's, each asset says `reused: true`, and nothing is charged (scoring_evaluations 0, evaluations_reused 3, credits_used 0). Had one creative been new, only its evaluations would have been scored and billed.",
    value: {
      ...first,
      request_id: "0b6e2f4a-9c17-4d3b-8e52-a4f1c7d09e36",
      ranked: first.ranked.map((asset) => ({ ...asset, reused: true })),
      summary: { ...first.summary, scoring_evaluations: 0, evaluations_reused: 3, credits_used: 0 },
    },
  },
  ...rankAnswers,
};
