import { billedEvaluations, reusedEvaluations, whollyReused } from "./billing.ts";
import type { AssetOutcome } from "./outcome.ts";
import type { RankPlan } from "./plan.ts";
import type { Ablation, AssetError, ScoredAsset } from "./scored-asset.ts";

export interface ScoredBatch {
  /** Assets whose primary evaluation succeeded, in input order. */
  scored: ScoredAsset[];
  /** Per-asset failures, in input order (spec rule 6). */
  errors: AssetError[];
  /** What the batch is billed for; the settlement confirms it. */
  billedEvaluations: number;
  /** Evaluations of the scored assets reused from earlier requests (not billed). */
  reusedEvaluations: number;
}

/** Said of an asset that has no outcome at all; the runner should never leave one behind. */
export const NOT_EVALUATED = "The asset was not evaluated.";

/**
 * Splits the per-asset outcomes into scored assets and errors, and counts what they cost.
 * `outcomes[i]` belongs to `plan.assets[i]`.
 */
export function scoreAssets(plan: RankPlan, outcomes: ReadonlyArray<AssetOutcome | undefined>): ScoredBatch {
  const scored: ScoredAsset[] = [];
  const errors: AssetError[] = [];
  let billed = 0;
  let reused = 0;
  for (const asset of plan.assets) {
    const outcome: AssetOutcome = outcomes[asset.index] ?? { kind: "failed", error: NOT_EVALUATED };
    billed += billedEvaluations(outcome);
    reused += reusedEvaluations(outcome);
    const base = { index: asset.index, url: asset.url, assetId: asset.assetId };
    if (outcome.kind === "failed") {
      errors.push({ ...base, error: outcome.error });
      continue;
    }
    if (!outcome.primary.ok) {
      errors.push({ ...base, error: outcome.primary.error });
      continue;
    }
    const evaluation = outcome.primary.evaluation;
    scored.push({
      ...base,
      assetType: asset.assetType,
      layer: outcome.layer,
      copyIncluded: outcome.layer !== "image-only",
      score: evaluation.score,
      scoreBeforeRefine: evaluation.score,
      ablation: ablationOf(outcome),
      evaluation,
      reused: whollyReused(outcome),
      reusedEvaluations: reusedEvaluations(outcome),
      panelOutcome: null,
    });
  }
  return { scored, errors, billedEvaluations: billed, reusedEvaluations: reused };
}

function ablationOf(outcome: Extract<AssetOutcome, { kind: "evaluated" }>): Ablation {
  switch (outcome.layer) {
    case "image-only":
      return { kind: "self" };
    case "copy-only":
      return { kind: "not-applicable" };
    case "full-ad-package":
      if (outcome.ablation?.ok) return { kind: "measured", score: outcome.ablation.evaluation.score };
      return { kind: "failed" };
    default: {
      const never: never = outcome.layer;
      throw new Error(`unknown score layer ${String(never)}`);
    }
  }
}
