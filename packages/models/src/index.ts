export type { CopyFields, Embedder, GenerateRequest, GenerateResult, Generator, ImageInput, SimHints, TokenUsage } from "./types.ts";
export { ModelError, isModelError, type Misconfiguration, type MisconfigurationCause, type ModelErrorInit, type ModelErrorKind } from "./model-error.ts";
export { misconfigurationFix, type ModelSettings } from "./resilience/model-settings.ts";

export { createCallPolicy, type Attempt, type CallLimits, type CallPolicy, type CallPolicyOptions, type RetryEvent } from "./resilience/call-policy.ts";
export { createConcurrencyLimiter, type ConcurrencyLimiter } from "./resilience/concurrency-limiter.ts";
export { fullJitterDelayMs } from "./resilience/backoff.ts";
export { retryAfterMs, type HeaderReader } from "./resilience/retry-after.ts";
export { modelErrorFromHttpFailure, type HttpFailure, type ModelTarget } from "./resilience/http-failure.ts";
export { realSleep, type Sleep } from "./resilience/sleep.ts";

export { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./adapters/generation-options.ts";
export {
  createOpenAICompatibleEmbedder,
  createOpenAICompatibleGenerator,
  DEFAULT_OPENAI_REASONING_BUDGET,
  OPENAI_DEFAULT_BASE_URL,
  OPENAI_REASONING_EFFORTS,
  type OpenAICompatibleConnection,
  type OpenAICompatibleEmbedderOptions,
  type OpenAICompatibleOptions,
  type OpenAIReasoningEffort,
} from "./adapters/openai-compatible.ts";
export { createAnthropicGenerator, ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_MIN_THINKING_BUDGET, type AnthropicOptions } from "./adapters/anthropic.ts";
export { createGeminiEmbedder, createGeminiGenerator, DEFAULT_GEMINI_THINKING_BUDGET, GEMINI_DEFAULT_BASE_URL, type GeminiConnection, type GeminiEmbedderOptions, type GeminiOptions } from "./adapters/gemini.ts";
export { createVertexEmbedder, createVertexGenerator, type ServiceAccountKey, type VertexEmbedderOptions, type VertexOptions } from "./adapters/vertex.ts";
export { createBedrockEmbedder, createBedrockGenerator, type BedrockCredentials, type BedrockEmbedderOptions, type BedrockOptions } from "./adapters/bedrock.ts";
export { openaiModelRules, openaiCapabilityRows, reasoningEffortFor, OPENAI_FLAVORS, type OpenAIFlavor, type OpenAIModelRules } from "./capabilities/openai.ts";
export { parseResetDuration, openAIRetryAfterMs } from "./resilience/openai-rate-limit.ts";
export { anthropicModelRules, type AnthropicModelRules } from "./capabilities/anthropic.ts";
export { geminiModelRules, type GeminiModelRules } from "./capabilities/gemini.ts";
export { bedrockModelRules, type BedrockModelRules } from "./capabilities/bedrock.ts";
export { allCapabilityRows, capabilityTableMarkdown } from "./capabilities/capability-table.ts";

export { createSimGenerator, SAMPLE_JITTER, FIRST_POSITION_BONUS, type SimGeneratorOptions } from "./sim/sim-generator.ts";
export { createSimEmbedder, simEmbedding, SIM_EMBEDDING_DIMENSIONS } from "./sim/sim-embedder.ts";
export { assessCreative, visualScores, visualQuality, type Assessment, type CreativeContext, type VisualScores } from "./sim/creative-quality.ts";
export { createImageStatsCache, measureImage, hashBytes, type ImageStats, type ImageStatsCache } from "./sim/image-stats.ts";
export { textStance, type Stance } from "./sim/stance.ts";
export { SIMULATED_NOTE } from "./sim/answer-text.ts";
export { withFixedLatency } from "./fixed-latency.ts";

export { modelsFromEnv, SIM_ONLY_WARNING, type ModelRole, type ModelSet, type ModelsFromEnvOptions } from "./config/models-from-env.ts";
export { readProviderProfiles, PROFILE_KINDS, type ProfileKind, type ProviderProfile } from "./config/provider-profiles.ts";
export { checkModels, type CheckRole, type ModelCheckRow, type ModelsToCheck } from "./preflight/check-models.ts";
export { formatCheckTable } from "./preflight/format-check-table.ts";
export { createModelsReadiness, type ModelsReadiness } from "./preflight/models-readiness.ts";
export { runStartupModelCheck } from "./preflight/startup-check.ts";
export type { CapabilityRow } from "./capabilities/capability-row.ts";
export { ModelsEnv, DEFAULT_EMBEDDER, DEFAULT_GENERATORS, DEFAULT_GENERATOR_TEMPERATURES, DEFAULT_VOTER, DEFAULT_VOTER_TEMPERATURE, MAX_VOTERS, type ModelsConfig } from "./config/models-env.ts";
export { parseModelRef, PROVIDERS, type ModelRef, type Provider } from "./config/model-ref.ts";
export { describeModelError } from "./describe-model-error.ts";
export { formatModelRef } from "./config/model-ref.ts";
export { PERSONA_RULES, personaEffects, personaPoints, type PersonaEffect, type PersonaRule, type PersonaRuleField, type PersonaRuleName } from "./sim/persona-rules.ts";
export { copyCues, creativeCues, layoutBusyness, type CopyCues, type CreativeCues } from "./sim/persona-cues.ts";
