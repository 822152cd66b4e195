import { z } from "zod";
import { CreditsStatus } from "../common/credits-status.ts";
import { GENERATOR_SAMPLES_PER_EVALUATION, REPETITIONS_PER_EVALUATION, ScoreLayer } from "../method.ts";
import { PairwiseResult } from "../common/panel-result.ts";
import { ModelsUsed } from "../common/models-used.ts";
import { AnswerWarnings } from "../trust/answer-warnings.ts";
import { MethodReceipt } from "../trust/method-receipt.ts";
import { ASSET_REUSED_DESCRIPTION, EVALUATIONS_REUSED_DESCRIPTION } from "./reuse-evaluations.ts";
import { P_ABOVE_NEXT_DESCRIPTION, RankUncertainty, TOO_CLOSE_TO_CALL } from "../trust/rank-uncertainty.ts";

const Score = z.number().min(1).max(5);

export const PanelOutcome = z.object({
  winnerAssetId: z.string(),
  loserAssetId: z.string(),
  flipped: z.boolean().meta({
    description:
      "True when the panel's winner had the lower raw score (score_before_refine) than the loser: the panel reversed the two assets' raw order. Judged on the raw scores, not on the scores earlier refined pairs left.",
  }),
  votesFor: z.int(),
  votesTotal: z.int(),
  consistency: z.number(),
});
export type PanelOutcome = z.output<typeof PanelOutcome>;

export const ConfidenceDetails = z.object({
  entropy: z.number().meta({ description: "Spread of the response distribution (0..1); higher means less decided." }),
  top_margin: z.number().meta({ description: "Distance between the leading response bucket and the next." }),
  sample_std_dev: z.number().meta({ description: "Standard deviation across the three repetitions." }),
  repetition_count: z.literal(REPETITIONS_PER_EVALUATION),
  generator_sample_count: z.literal(GENERATOR_SAMPLES_PER_EVALUATION),
});

export const ScoreDetails = z.object({
  probabilities: z.array(z.number()).length(5),
  similarities: z.array(z.number()).length(5),
  repetitionCount: z.literal(REPETITIONS_PER_EVALUATION),
  generatorSampleCount: z.literal(GENERATOR_SAMPLES_PER_EVALUATION),
  repetitionScores: z.array(z.number()).length(REPETITIONS_PER_EVALUATION),
  repetitionScoreRange: z.number(),
});

export const ConfidenceLabel = z.enum(["high", "medium", "low"]);

/** Clients must accept unknown keys here (Versioning 3). */
export const RankedAsset = z.looseObject({
  rank: z.int().min(1),
  asset_url: z.string(),
  asset_id: z.string().nullable(),
  score: Score.meta({ description: "Final score after any close-pair refinement." }),
  score_before_refine: z.number(),
  score_layer: ScoreLayer,
  asset_type: z.string(),
  copy_context_included: z.boolean(),
  image_only_score: z.number().nullable().optional().meta({ description: "Image-only ablation score; equals score for image-only assets; absent when the ablation failed." }),
  copy_lift: z.number().nullable().optional().meta({ description: "score minus image_only_score when copy_context is present; absent when the ablation failed; 0 for image-only assets." }),
  rationale: z.string(),
  product_read: z.string(),
  confidence: ConfidenceLabel,
  panel_outcome: PanelOutcome.nullable(),
  confidence_details: ConfidenceDetails,
  details: ScoreDetails,
  p_above_next: z.number().min(0).max(1).nullable().optional().meta({ description: `${P_ABOVE_NEXT_DESCRIPTION} Always sent by this version; absent from older servers.` }),
  too_close_to_call: z
    .boolean()
    .optional()
    .meta({ description: `True when p_above_next lies between ${TOO_CLOSE_TO_CALL.low} and ${TOO_CLOSE_TO_CALL.high}: this asset and the next are a coin toss. Always sent by this version.` }),
  reused: z.boolean().optional().meta({ description: ASSET_REUSED_DESCRIPTION }),
});
export type RankedAsset = z.output<typeof RankedAsset>;

export const RankAssetError = z.object({
  asset_url: z.string(),
  asset_id: z.string().nullable(),
  error: z.string(),
});
export type RankAssetError = z.output<typeof RankAssetError>;

/** One refined pair: the panel's result (a is the asset with the higher raw score) and what refinement read from it. Clients must accept unknown keys here. */
export const ClosePairResult = z.looseObject({
  ...PairwiseResult.shape,
  gap: z.number().meta({ description: "Raw score difference of the pair, below 0.30." }),
  rawScores: z.object({ a: z.number(), b: z.number() }),
  flipped: z.boolean().meta({ description: "True when the panel's winner had the lower raw score." }),
  model: z.string().nullable().meta({ description: "The voter model that answered, when any did." }),
});
export type ClosePairResult = z.output<typeof ClosePairResult>;

export const ClosePairRefinement = z.object({
  enabled: z.boolean(),
  pairs_evaluated: z.int(),
  results: z.array(ClosePairResult).meta({ description: "One raw result per refined pair: its five votes, tally, gap, raw scores and `flipped` (true when the panel's winner had the lower raw score)." }),
  error: z.string().optional().meta({ description: "Present when refinement was asked for but could not run; scores are then raw." }),
});
export type ClosePairRefinement = z.output<typeof ClosePairRefinement>;

/** Clients must accept unknown keys here (Versioning 3). */
export const RankSummary = z.looseObject({
  goal: z.string(),
  asset_type: z.string(),
  platform: z.string().nullable(),
  audience: z.string().meta({ description: "Audience name." }),
  assets_ranked: z.int(),
  assets_failed: z.int(),
  scoring_evaluations: z.int().meta({ description: "Successful evaluations made for this request: billed and counted against the rate limit (reused ones are counted in evaluations_reused instead)." }),
  evaluations_reused: z.int().min(0).optional().meta({ description: EVALUATIONS_REUSED_DESCRIPTION }),
  repetitions_per_evaluation: z.literal(REPETITIONS_PER_EVALUATION),
  generator_samples_per_evaluation: z.literal(GENERATOR_SAMPLES_PER_EVALUATION),
  close_pair_refinement: ClosePairRefinement,
  credits_used: z.int(),
  credits_remaining: z.int().nullable(),
  credits_status: CreditsStatus.optional(),
  ad_rankings_used: z.int().optional(),
  ad_rankings_remaining: z.int().optional(),
  models: ModelsUsed.optional().meta({ description: "Which models produced this response, and whether any of them is the simulated model. Always sent by this version; absent from servers older than it, so clients should treat a missing value as unknown." }),
  uncertainty: RankUncertainty.optional(),
  warnings: AnswerWarnings.optional(),
  method: MethodReceipt.optional(),
});
export type RankSummary = z.output<typeof RankSummary>;

export const RankResponse = z.object({
  request_id: z.uuid(),
  ranked: z.array(RankedAsset).meta({ description: "Sorted by final score, descending." }),
  errors: z.array(RankAssetError),
  summary: RankSummary,
});
export type RankResponse = z.output<typeof RankResponse>;
