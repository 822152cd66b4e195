import { z } from "zod";
import { CreditsStatus } from "../common/credits-status.ts";
import { ModelsUsed } from "../common/models-used.ts";
import { GENERATOR_SAMPLES_PER_EVALUATION, REPETITIONS_PER_EVALUATION } from "../method.ts";
import { EVALUATIONS_REUSED_DESCRIPTION } from "../rank/reuse-evaluations.ts";
import { RankAssetError, RankedAsset, RankSummary } from "../rank/rank-response.ts";
import { AnswerWarnings } from "../trust/answer-warnings.ts";

// Audiences side by side (issue 35). Scores compared across audiences are the repetition means
// before close-pair refinement (score_before_refine): those are the figures whose noise the
// repetitions measure. "Beyond noise" and "within noise" use one statistic throughout: the
// difference of two means of three repetitions has standard error s·√(2/3), s the repetition
// noise pooled over both audiences' assets, and its probability of sign is Student's t with the
// pooled degrees of freedom, as for p_above_next.

/** The share of a one-sided probability beyond which a difference counts as real. */
export const BEYOND_NOISE_PROBABILITY = 0.95;

const AssetRef = {
  asset_index: z.int().min(0).meta({ description: "The asset's position in the request's `assets` (0-based)." }),
  asset_id: z.string().nullable(),
  asset_url: z.string(),
};

/** One audience's complete ranking: what POST /api/v1/rank answers for that audience alone, without its own request_id. */
export const AudienceRanking = z
  .object({
    audience: z.string().meta({ description: "The audience's name." }),
    audience_id: z.string().nullable().meta({ description: "The saved audience's id; null for an inline audience." }),
    ranked: z.array(RankedAsset).meta({ description: "Sorted by final score, descending, as in POST /api/v1/rank." }),
    errors: z.array(RankAssetError),
    summary: RankSummary.meta({
      description: "This audience's summary, as POST /api/v1/rank reports it; `scoring_evaluations` and `credits_used` are this audience's share of the request's charge.",
    }),
  })
  .meta({ id: "AudienceRanking" });
export type AudienceRanking = z.output<typeof AudienceRanking>;

export const AudienceScore = z.object({
  audience: z.string(),
  score: z.number().nullable().meta({ description: "Final score under this audience (after refinement); null when the asset failed for it." }),
  score_before_refine: z.number().nullable(),
  rank: z.int().min(1).nullable(),
});

export const AssetComparison = z
  .looseObject({
    ...AssetRef,
    scores: z.array(AudienceScore).meta({ description: "One entry per audience, in the request's order." }),
    spread: z.number().nullable().meta({ description: "Highest minus lowest final score over the audiences that scored it; null when fewer than two did." }),
    best_audience: z.string().nullable().meta({ description: "The audience that scores it highest (the earlier one on a tie); null when fewer than two audiences scored it." }),
    worst_audience: z.string().nullable().meta({ description: "The audience that scores it lowest (the later one on a tie); null when fewer than two audiences scored it." }),
  })
  .meta({ id: "AssetComparison" });
export type AssetComparison = z.output<typeof AssetComparison>;

const ReversalSide = z.object({
  audience: z.string(),
  score_a: z.number().meta({ description: "Asset a's score_before_refine under this audience." }),
  score_b: z.number().meta({ description: "Asset b's score_before_refine under this audience." }),
  gap: z.number().meta({ description: "How far the audience's preferred asset leads: positive, in score points." }),
  p_order: z.number().min(0).max(1).meta({ description: `The probability that this audience's order of the two is real and not repetition noise (at least ${BEYOND_NOISE_PROBABILITY} for a reversal).` }),
});

export const Reversal = z
  .looseObject({
    asset_a: z.object(AssetRef),
    asset_b: z.object(AssetRef),
    prefers_a: ReversalSide.meta({ description: "The audience that ranks asset a above asset b." }),
    prefers_b: ReversalSide.meta({ description: "The audience that ranks asset b above asset a." }),
    swing: z.number().meta({ description: "prefers_a.gap + prefers_b.gap: how far the pair's order moves between the two audiences." }),
  })
  .meta({
    id: "AudienceReversal",
    description: `Two assets whose order flips between two audiences, each order beyond the repetitions' noise (one-sided probability ≥ ${BEYOND_NOISE_PROBABILITY} in both audiences) and shown by both audiences' final rankings.`,
  });
export type Reversal = z.output<typeof Reversal>;

export const AudienceSensitivity = z
  .looseObject({
    audience_a: z.string(),
    audience_b: z.string(),
    assets_compared: z.int().min(0).meta({ description: "Assets scored under both audiences." }),
    rank_correlation: z.number().min(-1).max(1).nullable().meta({
      description: "Spearman's rank correlation of the two audiences' final scores over the assets both scored (ties share their mean rank); null with fewer than two such assets, or when one audience scored them all alike.",
    }),
    largest_score_change: z.number().nullable().meta({ description: "The largest |difference| of an asset's score_before_refine between the two audiences; null when no asset was scored by both." }),
    persona_made_no_difference: z.boolean().meta({
      description: `True when every asset scored by both audiences got scores that agree within noise (two-sided: neither order reaches a probability of ${BEYOND_NOISE_PROBABILITY}). The personas then changed what the models said, not what they decided: the comparison tells you nothing about these audiences. False when any asset differs beyond noise, or when no asset was scored by both.`,
    }),
  })
  .meta({ id: "AudienceSensitivity" });
export type AudienceSensitivity = z.output<typeof AudienceSensitivity>;

/** Clients must accept unknown keys here (Versioning 3). */
export const RankAudiencesSummary = z
  .looseObject({
    goal: z.string(),
    asset_type: z.string(),
    platform: z.string().nullable(),
    audiences: z.array(z.string()).meta({ description: "The audiences' names, in the request's order." }),
    assets_ranked: z.int().meta({ description: "Summed over audiences: an asset ranked for three audiences counts three times." }),
    assets_failed: z.int().meta({ description: "Summed over audiences." }),
    scoring_evaluations: z.int().meta({ description: "Successful evaluations billed and counted against the rate limit, over all audiences." }),
    evaluations_reused: z.int().min(0).optional().meta({ description: `${EVALUATIONS_REUSED_DESCRIPTION} Over all audiences.` }),
    repetitions_per_evaluation: z.literal(REPETITIONS_PER_EVALUATION),
    generator_samples_per_evaluation: z.literal(GENERATOR_SAMPLES_PER_EVALUATION),
    close_pairs_refined: z.int().meta({ description: "Close pairs refined by a panel, summed over audiences." }),
    credits_used: z.int(),
    credits_remaining: z.int().nullable(),
    credits_status: CreditsStatus.optional(),
    models: ModelsUsed.meta({ description: "Every model that produced any audience's ranking." }),
    warnings: AnswerWarnings.meta({ description: "Each warning of any audience's ranking once (by code and message), plus `persona_made_no_difference` when a pair of audiences scored alike." }),
  })
  .meta({ id: "RankAudiencesSummary" });
export type RankAudiencesSummary = z.output<typeof RankAudiencesSummary>;

export const RankAudiencesResponse = z
  .object({
    request_id: z.uuid(),
    by_audience: z.array(AudienceRanking).meta({ description: "One complete ranking per audience, in the request's order." }),
    comparison: z.array(AssetComparison).meta({ description: "One entry per asset, in the request's order." }),
    reversals: z.array(Reversal).meta({ description: "Largest swing first." }),
    audience_sensitivity: z.array(AudienceSensitivity).meta({ description: "One entry per pair of audiences, in the request's order (first with second, first with third, …)." }),
    summary: RankAudiencesSummary,
  })
  .meta({ id: "RankAudiencesResponse" });
export type RankAudiencesResponse = z.output<typeof RankAudiencesResponse>;
