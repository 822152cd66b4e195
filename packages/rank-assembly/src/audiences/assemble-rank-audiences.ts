import { GENERATOR_SAMPLES_PER_EVALUATION, REPETITIONS_PER_EVALUATION, type AudienceRanking, type RankAudiencesResponse } from "@adrank/contracts";
import { assembleRankResponse, inRankOrder } from "../assemble.ts";
import { modelsUsedByRank } from "../models-used.ts";
import type { RankPlan } from "../plan.ts";
import type { RefinementOutcome } from "../refinement.ts";
import type { AssetError } from "../scored-asset.ts";
import type { Settlement } from "../settlement.ts";
import type { AudienceRankedScores, RequestAsset } from "./audience-scores.ts";
import { compareAudiences } from "./compare-audiences.ts";
import { creditShares } from "./credit-shares.ts";
import { distinctWarnings } from "./distinct-warnings.ts";
import { mergeModelsUsed } from "./merged-models.ts";
import { personaWarnings } from "./persona-warnings.ts";

/** One audience's part of the request: planned, scored and refined as POST /api/v1/rank would. */
export interface AudienceRun {
  name: string;
  /** The saved audience's id; null for an inline one. */
  audienceId: string | null;
  plan: RankPlan;
  refinement: RefinementOutcome;
  errors: readonly AssetError[];
  /** This audience's billed evaluations. */
  units: number;
}

export interface AudienceAssemblyInput {
  requestId: string;
  /** The request's assets, in order. */
  assets: readonly RequestAsset[];
  /** In the request's order; at least one. */
  audiences: readonly AudienceRun[];
  /** The whole request's charge. */
  settlement: Settlement;
}

/**
 * The rankAcrossAudiences body. Each `by_audience` entry is what assembleRankResponse answers
 * for that audience alone (without request_id), billed its share: its own units and its
 * proportional whole share of the request's credits (creditShares). The balance and the
 * ledger's status are the request's, so they appear only in the top-level summary: each
 * audience's summary says `credits_remaining: null` and has no `credits_status`. That keeps
 * the pending triple `credits_used, credits_remaining: null, credits_status: "pending"`
 * unique to the top summary, the last member of the body, which is where a confirmation
 * rewrites a stored answer (request-records' withConfirmedCredits).
 *
 * @throws RangeError when there is no audience.
 */
export function assembleRankAudiencesResponse({ requestId, assets, audiences, settlement }: AudienceAssemblyInput): RankAudiencesResponse {
  const first = audiences[0];
  if (!first) throw new RangeError("assembleRankAudiencesResponse: no audience to assemble");
  const shares = creditShares(settlement.creditsUsed, audiences.map((a) => a.units));
  const byAudience = audiences.map((audience, i) => audienceRanking(requestId, audience, { units: audience.units, creditsUsed: shares[i]!, creditsRemaining: null, status: settlement.status }));
  const { comparison, reversals, audience_sensitivity } = compareAudiences(assets, audiences.map(rankedScoresOf));
  return {
    request_id: requestId,
    by_audience: byAudience,
    comparison,
    reversals,
    audience_sensitivity,
    summary: {
      goal: first.plan.goal,
      asset_type: first.plan.assetType,
      platform: first.plan.platform,
      audiences: audiences.map((a) => a.name),
      assets_ranked: byAudience.reduce((n, a) => n + a.summary.assets_ranked, 0),
      assets_failed: byAudience.reduce((n, a) => n + a.summary.assets_failed, 0),
      scoring_evaluations: settlement.units,
      evaluations_reused: byAudience.reduce((n, a) => n + (a.summary.evaluations_reused ?? 0), 0),
      repetitions_per_evaluation: REPETITIONS_PER_EVALUATION,
      generator_samples_per_evaluation: GENERATOR_SAMPLES_PER_EVALUATION,
      close_pairs_refined: audiences.reduce((n, a) => n + a.refinement.report.pairs_evaluated, 0),
      // Adjacent and in this order: the pending-credits triple a confirmation rewrites.
      credits_used: settlement.creditsUsed,
      credits_remaining: settlement.creditsRemaining,
      credits_status: settlement.status,
      models: mergeModelsUsed(audiences.map((a) => modelsUsedByRank(a.refinement.assets, a.refinement))),
      warnings: [...distinctWarnings(byAudience.flatMap((a) => a.summary.warnings ?? [])), ...personaWarnings(audience_sensitivity)],
    },
  };
}

function audienceRanking(requestId: string, audience: AudienceRun, share: Settlement): AudienceRanking {
  const { ranked, errors, summary } = assembleRankResponse({ requestId, plan: audience.plan, refinement: audience.refinement, errors: audience.errors, settlement: share });
  const { credits_status: _status, ...withoutStatus } = summary;
  return { audience: audience.name, audience_id: audience.audienceId, ranked, errors, summary: withoutStatus };
}

/** What the comparison reads of an audience's ranking, in the ranking's own order. */
function rankedScoresOf(audience: AudienceRun): AudienceRankedScores {
  return {
    audience: audience.name,
    ranked: inRankOrder(audience.refinement.assets).map((asset, i) => ({
      index: asset.index,
      rank: i + 1,
      score: asset.score,
      scoreBeforeRefine: asset.scoreBeforeRefine,
      repetitionScores: asset.evaluation.repetitionScores,
    })),
  };
}
