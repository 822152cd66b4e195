// Values
export { LEVELS, pmfFromSimilarities, scoreFromPmf, uniformPmf } from "./pmf.ts";
export { cosineSimilarity } from "./cosine.ts";
export { meanPairwiseCosine } from "./anchor-separability.ts";
export { sampleFromSimilarities, similaritiesToAnchors } from "./sample.ts";
export { aggregateEvaluation, aggregateFromSimilarities, normalizedEntropy, populationStdDev, topMarginOf } from "./aggregate.ts";
export { planEvaluation } from "./evaluation-plan.ts";
export { evaluationResult } from "./evaluation-result.ts";
export { confidenceLabel, CONFIDENCE_THRESHOLDS } from "./confidence.ts";
export { ANCHOR_SETS, anchorSets } from "./anchors.ts";
export { GOAL_TABLE, goalKnowledge } from "./goals/goal-table.ts";
export { DEMOGRAPHIC_DEFAULTS, DEMOGRAPHIC_FIELDS, describeDemographic } from "./demographics.ts";
export { buildPersona, DEFAULT_MARK } from "./persona.ts";
export { resolvePlacement, PLATFORM_FRAMING, CAMPAIGN_PLATFORM } from "./placement.ts";
export { assetTypeFraming, pairTypeFraming, ASSET_TYPE_FRAMING } from "./asset-framing.ts";
export { goalQuestion, goalComparison } from "./goal-framing.ts";
export { fenceUntrusted, quoteUntrusted, FENCE_OPEN, FENCE_CLOSE, FENCE_RULE } from "./fence.ts";
export { buildGeneratorPrompt, parseGeneratorAnswer, GENERATOR_SEATS, RATIONALE_PREFIX, PRODUCT_PREFIX, MISSING_RATIONALE, MISSING_PRODUCT_READ } from "./generator-prompt.ts";
export { buildVotePrompt, parseVoteAnswer, WINNER_PREFIX } from "./vote-prompt.ts";
export { SsrInputError, isSsrInputError } from "./ssr-input-error.ts";
export { METHOD_VERSION, promptTemplateSpecimen } from "./method-version.ts";

// Types
export type { PmfOptions } from "./pmf.ts";
export type { RatedSample, SampleSimilarities } from "./sample.ts";
export type { AggregateScore, RepetitionSamples } from "./aggregate.ts";
export type { EvaluationPlan, EvaluationPlanInput, PlannedGeneratorCall } from "./evaluation-plan.ts";
export type { EvaluationResult } from "./evaluation-result.ts";
export type { ConfidenceLabel, ConfidenceSignals } from "./confidence.ts";
export type { AnchorSet, GoalFraming, GoalKnowledge, SimGoalProfile, VisualWeights } from "./goals/goal-knowledge.ts";
export type { DemographicField } from "./demographics.ts";
export type { Persona, PersonaInputLike } from "./persona.ts";
export type { Placement } from "./placement.ts";
export type { GeneratorPromptInput, GeneratorAnswer, Prompt } from "./generator-prompt.ts";
export type { VotePromptInput, VoteAnswer } from "./vote-prompt.ts";
