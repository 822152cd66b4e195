import { GENERATOR_SAMPLES_PER_EVALUATION, REPETITIONS_PER_EVALUATION, type RankedAsset, type RankResponse } from "@adrank/contracts";
import type { RefinementOutcome } from "./refinement.ts";
import type { RankPlan } from "./plan.ts";
import type { AssetError, ScoredAsset } from "./scored-asset.ts";
import { modelsUsedByRank } from "./models-used.ts";
import type { Settlement } from "./settlement.ts";
import { rankedUncertainty, type AboveNext } from "./trust/adjacent-uncertainty.ts";
import { anchorWarnings, positivityWarnings, refinementSplitWarnings, separationWarnings, simulatedWarning } from "./trust/answer-warnings.ts";
import { methodReceiptOf } from "./trust/method-receipt.ts";


export interface AssembleInput {
  requestId: string;
  plan: RankPlan;
  refinement: RefinementOutcome;
  errors: readonly AssetError[];
  settlement: Settlement;
}

/**
 * The response body: ranked by final score, highest first, ties in input order (a stable
 * order the caller can predict), ranks from 1; errors in input order; the summary's
 * billing figures from the settlement, not from our own count.
 */
export function assembleRankResponse({ requestId, plan, refinement, errors, settlement }: AssembleInput): RankResponse {
  const ordered = inRankOrder(refinement.assets);
  const uncertainty = rankedUncertainty(ordered, refinement.report.results);
  const models = modelsUsedByRank(refinement.assets, refinement);
  return {
    request_id: requestId,
    ranked: ordered.map((asset, i) => rankedAsset(asset, i + 1, uncertainty.assets[i]!)),
    errors: [...errors].sort((a, b) => a.index - b.index).map((e) => ({ asset_url: e.url, asset_id: e.assetId, error: e.error })),
    summary: {
      goal: plan.goal,
      asset_type: plan.assetType,
      platform: plan.platform,
      audience: plan.audienceName,
      assets_ranked: ordered.length,
      assets_failed: errors.length,
      scoring_evaluations: settlement.units,
      evaluations_reused: ordered.reduce((n, a) => n + a.reusedEvaluations, 0),
      repetitions_per_evaluation: REPETITIONS_PER_EVALUATION,
      generator_samples_per_evaluation: GENERATOR_SAMPLES_PER_EVALUATION,
      close_pair_refinement: refinement.report,
      credits_used: settlement.creditsUsed,
      credits_remaining: settlement.creditsRemaining,
      credits_status: settlement.status,
      models,
      uncertainty: uncertainty.summary,
      warnings: [
        ...simulatedWarning(models.simulated),
        ...anchorWarnings(ordered.map((a) => a.evaluation.receipt)),
        ...separationWarnings(ordered),
        ...positivityWarnings(ordered),
        ...refinementSplitWarnings(refinement.report.results),
      ],
      method: methodReceiptOf({ evaluations: ordered.map((a) => a.evaluation.receipt), votes: refinement.voterReceipts }),
    },
  };
}

/** The ranking's order: final score, highest first, ties in input order. */
export function inRankOrder<T extends Pick<ScoredAsset, "score" | "index">>(assets: readonly T[]): T[] {
  return [...assets].sort((a, b) => b.score - a.score || a.index - b.index);
}

function rankedAsset(asset: ScoredAsset, rank: number, next: AboveNext): RankedAsset {
  const e = asset.evaluation;
  return {
    rank,
    asset_url: asset.url,
    asset_id: asset.assetId,
    score: asset.score,
    score_before_refine: asset.scoreBeforeRefine,
    score_layer: asset.layer,
    asset_type: asset.assetType,
    copy_context_included: asset.copyIncluded,
    ...imageOnlyFields(asset),
    rationale: e.rationale,
    product_read: e.productRead,
    confidence: e.confidence,
    panel_outcome: asset.panelOutcome,
    confidence_details: {
      entropy: e.entropy,
      top_margin: e.topMargin,
      sample_std_dev: e.sampleStdDev,
      repetition_count: REPETITIONS_PER_EVALUATION,
      generator_sample_count: GENERATOR_SAMPLES_PER_EVALUATION,
    },
    details: {
      probabilities: [...e.probabilities],
      similarities: [...e.similarities],
      repetitionCount: REPETITIONS_PER_EVALUATION,
      generatorSampleCount: GENERATOR_SAMPLES_PER_EVALUATION,
      repetitionScores: [...e.repetitionScores],
      repetitionScoreRange: e.repetitionScoreRange,
    },
    p_above_next: next.pAboveNext,
    too_close_to_call: next.tooCloseToCall,
    reused: asset.reused,
  };
}

/** `copy_lift` is the final score minus the image-only score, as the spec defines it. */
function imageOnlyFields(asset: ScoredAsset): Pick<RankedAsset, "image_only_score" | "copy_lift"> {
  switch (asset.ablation.kind) {
    case "self":
      return { image_only_score: asset.score, copy_lift: 0 };
    case "measured":
      return { image_only_score: asset.ablation.score, copy_lift: asset.score - asset.ablation.score };
    case "not-applicable":
      return { image_only_score: null, copy_lift: null };
    case "failed":
      return {};
    default: {
      const never: never = asset.ablation;
      throw new Error(`unknown ablation ${JSON.stringify(never)}`);
    }
  }
}
