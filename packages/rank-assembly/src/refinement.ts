import type { ImageRef, ModelUsage, RefineAsset, RefinementReport, VoteReceipt } from "@adrank/bus-contracts";
import type { ClosePairRefinement } from "@adrank/contracts";
import { selectClosePairs } from "@adrank/panel-domain";
import type { RankPlan } from "./plan.ts";
import type { ScoredAsset } from "./scored-asset.ts";


export interface RefinementOutcome {
  /** The same assets, with `score` and `panelOutcome` adjusted where a panel disagreed. */
  assets: ScoredAsset[];
  /** The summary's `close_pair_refinement`; with `error` when refinement was asked for but could not run. */
  report: ClosePairRefinement;
  /** Calls and tokens of the panels' votes, per voter model; empty when no panel ran. */
  usage: ModelUsage[];
  /** How the panels' votes were produced (the receipt's voters); empty when no panel ran. */
  voterReceipts: VoteReceipt[];
}

export interface RefinementRequest {
  requestId: string;
  plan: RankPlan;
  assets: readonly ScoredAsset[];
  /** The prepared image of each scored asset, by request position. */
  images: ReadonlyMap<number, ImageRef>;
  /** Epoch ms by which refinement must have answered. */
  deadline: number;
  signal: AbortSignal;
  traceparent: string | null;
}

/** Close-pair refinement (spec rule 8) plugs in here; it must keep `scoreBeforeRefine` as it is. */
export type ClosePairRefiner = (request: RefinementRequest) => Promise<RefinementOutcome>;

/**
 * No refinement because the request turned it off: scores stay raw, `panel_outcome` null.
 */
export function withoutRefinement(assets: readonly ScoredAsset[]): RefinementOutcome {
  return { assets: [...assets], report: { enabled: false, pairs_evaluated: 0, results: [] }, usage: [], voterReceipts: [] };
}

/**
 * Refinement was asked for but ran no panel: no close pair, or (with `error`) it could not
 * run. A summary never claims a panel that did not run.
 */
export function refinementWithoutPanels(assets: readonly ScoredAsset[], error?: string): RefinementOutcome {
  return { assets: [...assets], report: { enabled: true, pairs_evaluated: 0, results: [], ...(error ? { error } : {}) }, usage: [], voterReceipts: [] };
}

/**
 * The outcome when refinement needs no panel: the request turned it off, or no two scored
 * assets are close (panel-domain's rule). Null when panels must run. Deciding this before
 * any round trip keeps a request without close pairs from paying for one.
 */
export function refinementWithoutWork(request: Pick<RefinementRequest, "plan" | "assets">): RefinementOutcome | null {
  if (!request.plan.refineClosePairs) return withoutRefinement(request.assets);
  if (selectClosePairs(request.assets.map((a) => ({ key: a.index, score: a.scoreBeforeRefine }))).length === 0) return refinementWithoutPanels(request.assets);
  return null;
}

/** The id an asset goes by in panel outcomes: its asset_id, or its position when it has none. */
export function panelIdOf(asset: Pick<ScoredAsset, "assetId" | "index">): string {
  return asset.assetId ?? `asset[${asset.index}]`;
}

/** What the refinement service needs of each scored asset; never its url. */
export function refineAssetsOf(request: Pick<RefinementRequest, "plan" | "assets" | "images">): RefineAsset[] {
  return request.assets.map((asset) => {
    const image = request.images.get(asset.index);
    if (!image) throw new Error(`scored asset ${asset.index} has no prepared image`);
    const copy = asset.layer === "image-only" ? null : (request.plan.assets[asset.index]?.copy ?? null);
    return { key: asset.index, id: panelIdOf(asset), score: asset.scoreBeforeRefine, assetType: asset.assetType, image, copy };
  });
}

/** The refinement service's report applied to the assets: final scores and panel outcomes by position. */
export function applyRefinementReport(assets: readonly ScoredAsset[], report: RefinementReport): RefinementOutcome {
  const scores = new Map(report.scores.map((s) => [s.key, s.score]));
  const outcomes = new Map(report.outcomes.map((o) => [o.key, o.panelOutcome]));
  return {
    assets: assets.map((asset) => ({ ...asset, score: scores.get(asset.index) ?? asset.score, panelOutcome: outcomes.get(asset.index) ?? asset.panelOutcome })),
    report: { enabled: true, pairs_evaluated: report.pairsEvaluated, results: report.results },
    usage: report.usage ?? [],
    voterReceipts: report.voterReceipts ?? [],
  };
}
