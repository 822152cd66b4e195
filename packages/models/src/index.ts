export type { CopyFields, Embedder, GenerateRequest, GenerateResult, Generator, ImageInput, SimHints, TokenUsage } from "./types.ts";
export { ModelError, isModelError, type ModelErrorInit, type ModelErrorKind } from "./model-error.ts";

export { createCallPolicy, type Attempt, type CallPolicy, type CallPolicyOptions, type RetryEvent } from "./resilience/call-policy.ts";
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

export { createSimGenerator, SAMPLE_JITTER, FIRST_POSITION_BONUS, type SimGeneratorOptions } from "./sim/sim-generator.ts";
export { createSimEmbedder, simEmbedding, SIM_EMBEDDING_DIMENSIONS } from "./sim/sim-embedder.ts";
export { assessCreative, visualScores, visualQuality, type Assessment, type CreativeContext, type VisualScores } from "./sim/creative-quality.ts";
export { createImageStatsCache, measureImage, hashBytes, type ImageStats, type ImageStatsCache } from "./sim/image-stats.ts";
export { textStance, type Stance } from "./sim/stance.ts";
export { SIMULATED_NOTE } from "./sim/answer-text.ts";
export { withFixedLatency } from "./fixed-latency.ts";

export { modelsFromEnv, SIM_ONLY_WARNING, type ModelSet, type ModelsFromEnvOptions } from "./config/models-from-env.ts";
export { ModelsEnv, DEFAULT_EMBEDDER, DEFAULT_GENERATORS, DEFAULT_GENERATOR_TEMPERATURES, DEFAULT_VOTER, DEFAULT_VOTER_TEMPERATURE, MAX_VOTERS, type ModelsConfig } from "./config/models-env.ts";
export { parseModelRef, PROVIDERS, type ModelRef, type Provider } from "./config/model-ref.ts";
export { describeModelError } from "./describe-model-error.ts";
export { formatModelRef } from "./config/model-ref.ts";
