export { planRank, personaOf, layersFor, maxEvaluationsOf, type RankPlan, type AssetPlan, type RankRequestInput, type ResolvedAudience } from "./plan.ts";
export { effectivePlatform } from "./platform.ts";
export { givenDemographics } from "./demographics.ts";
export type { AssetOutcome, EvaluationOutcome } from "./outcome.ts";
export type { ScoredAsset, AssetError, Ablation } from "./scored-asset.ts";
export { billedEvaluations, billedEvaluationsOfBatch } from "./billing.ts";
export { scoreAssets, NOT_EVALUATED, type ScoredBatch } from "./score-assets.ts";
export { withoutRefinement, refinementWithoutPanels, refinementWithoutWork, panelIdOf, refineAssetsOf, applyRefinementReport, type ClosePairRefiner, type RefinementOutcome, type RefinementRequest } from "./refinement.ts";
export { assembleRankResponse, type Settlement, type AssembleInput } from "./assemble.ts";
