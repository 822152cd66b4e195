import type { Evaluation } from "@adrank/bus-contracts";
import type { PanelOutcome, ScoreLayer } from "@adrank/contracts";

/**
 * Where an asset's `image_only_score` comes from:
 * - `self`: an image-only asset is its own ablation (image_only_score = score, copy_lift 0);
 * - `measured`: the ablation of a full ad package succeeded;
 * - `failed`: the ablation failed, so both fields are left out (spec rule 5);
 * - `not-applicable`: a copy-only asset has no picture to ablate (both fields null).
 */
export type Ablation = { kind: "self" } | { kind: "measured"; score: number } | { kind: "failed" } | { kind: "not-applicable" };

/** An asset whose primary evaluation succeeded, before and after close-pair refinement. */
export interface ScoredAsset {
  index: number;
  url: string;
  assetId: string | null;
  assetType: string;
  layer: ScoreLayer;
  copyIncluded: boolean;
  /** The final score; refinement may change it. */
  score: number;
  /** The raw score of the primary evaluation; refinement never changes it. */
  scoreBeforeRefine: number;
  ablation: Ablation;
  evaluation: Evaluation;
  /** True when every evaluation of the asset was reused from an earlier request (it cost nothing). */
  reused: boolean;
  /** How many of its evaluations in the answer were reused (0 to 2): the summary's evaluations_reused. */
  reusedEvaluations: number;
  /** The spec's PanelOutcome: set by close-pair refinement on both assets of a refined pair. */
  panelOutcome: PanelOutcome | null;
}

export interface AssetError {
  index: number;
  url: string;
  assetId: string | null;
  error: string;
}
