import type { ScoreLayer } from "@adrank/messaging";
import type { ClosePairRefinementReport } from "./refinement.ts";
import type { PanelOutcome } from "./scored-asset.ts";

// The rank response exactly as the spec names its fields (note the mixed naming: snake_case
// at the top, camelCase inside `details`). The contracts package validates the same shape.

export interface RankedAssetBody {
  rank: number;
  asset_url: string;
  asset_id: string | null;
  score: number;
  score_before_refine: number;
  score_layer: ScoreLayer;
  asset_type: string;
  copy_context_included: boolean;
  /** Absent when the ablation of a full ad package failed (spec rule 5). */
  image_only_score?: number | null;
  copy_lift?: number | null;
  rationale: string;
  product_read: string;
  confidence: "high" | "medium" | "low";
  panel_outcome: PanelOutcome | null;
  confidence_details: {
    entropy: number;
    top_margin: number;
    sample_std_dev: number;
    repetition_count: number;
    generator_sample_count: number;
  };
  details: {
    probabilities: number[];
    similarities: number[];
    repetitionCount: number;
    generatorSampleCount: number;
    repetitionScores: number[];
    repetitionScoreRange: number;
  };
}

export interface RankAssetErrorBody {
  asset_url: string;
  asset_id: string | null;
  error: string;
}

export interface RankSummaryBody {
  goal: string;
  asset_type: string;
  platform: string | null;
  audience: string;
  assets_ranked: number;
  assets_failed: number;
  scoring_evaluations: number;
  repetitions_per_evaluation: number;
  generator_samples_per_evaluation: number;
  close_pair_refinement: ClosePairRefinementReport;
  credits_used: number;
  credits_remaining: number | null;
}

export interface RankResponseBody {
  request_id: string;
  ranked: RankedAssetBody[];
  errors: RankAssetErrorBody[];
  summary: RankSummaryBody;
}
