import { loadConfig } from "@adrank/runtime";
import { createAnthropicGenerator } from "../adapters/anthropic.ts";
import { createGeminiEmbedder, createGeminiGenerator } from "../adapters/gemini.ts";
import { createOpenAICompatibleEmbedder, createOpenAICompatibleGenerator, OPENAI_DEFAULT_BASE_URL } from "../adapters/openai-compatible.ts";
import { withFixedLatency } from "../fixed-latency.ts";
import { createCallPolicy, type CallPolicy, type CallPolicyOptions } from "../resilience/call-policy.ts";
import { createImageStatsCache } from "../sim/image-stats.ts";
import { createSimEmbedder } from "../sim/sim-embedder.ts";
import { createSimGenerator } from "../sim/sim-generator.ts";
import type { Embedder, Generator } from "../types.ts";
import { formatModelRef, type ModelRef, type Provider } from "./model-ref.ts";
import { ModelsEnv, type ModelsConfig } from "./models-env.ts";

export interface ModelSet {
  /** The pair every repetition samples, in a fixed order (generatorIndex 0 and 1), each at its seat's temperature. */
  generators: [Generator, Generator];
  embedder: Embedder;
  /**
   * The panel models (1 to 5), from ADRANK_VOTERS, else ADRANK_VOTER. The caller assigns
   * seats (panel-domain's modelIndexForSeat): each model takes a block of consecutive seats,
   * so with two or three models each one sees both presentation orders; a one-model list
   * puts that model in every seat.
   */
  voters: Generator[];
  /** Sentences the service should log at start, e.g. that it runs on the offline sim. */
  warnings: string[];
}

/** Hooks for the retry policy of every real provider (logging retries, tests). */
export type ModelsFromEnvOptions = Pick<CallPolicyOptions, "onRetry" | "sleep" | "random" | "now">;

export const SIM_ONLY_WARNING =
  "No model provider is configured: the service is using the offline simulated model (sim) for generators, embedder and voter. Its answers are computed from image statistics and copy heuristics, not written by a language model, and every response says so.";

/**
 * Builds the models a service needs from its environment. Throws a ConfigError naming each
 * bad variable. Models of one provider share one retry policy and concurrency limit.
 *
 * @example
 * const { generators, embedder, voters, warnings } = modelsFromEnv(process.env);
 * for (const w of warnings) logger.warn(w);
 */
export function modelsFromEnv(env: Record<string, string | undefined> = process.env, options: ModelsFromEnvOptions = {}): ModelSet {
  const config = loadConfig(ModelsEnv, env);
  const policies = new Map<Provider, CallPolicy>();
  const policyFor = (provider: Provider) => {
    let policy = policies.get(provider);
    if (!policy) {
      policy = createCallPolicy({ ...options, timeoutMs: config.MODEL_TIMEOUT_MS, maxRetries: config.MODEL_MAX_RETRIES, concurrency: config.MODEL_CONCURRENCY });
      policies.set(provider, policy);
    }
    return policy;
  };
  const statsCache = createImageStatsCache();

  const generation = { maxOutputTokens: config.MODEL_MAX_OUTPUT_TOKENS, answerRetries: config.MODEL_ANSWER_RETRIES };
  const generator = (ref: ModelRef, temperature: number): Generator => {
    switch (ref.provider) {
      case "openai":
        return createOpenAICompatibleGenerator({
          ...generation,
          model: ref.model,
          apiKey: config.OPENAI_API_KEY,
          baseURL: config.OPENAI_BASE_URL,
          policy: policyFor("openai"),
          temperature,
          reasoningEffort: config.OPENAI_REASONING_EFFORT,
          reasoningBudget: config.OPENAI_REASONING_BUDGET,
        });
      case "anthropic":
        return createAnthropicGenerator({
          ...generation,
          model: ref.model,
          apiKey: config.ANTHROPIC_API_KEY ?? "",
          baseURL: config.ANTHROPIC_BASE_URL,
          policy: policyFor("anthropic"),
          temperature,
          thinkingBudget: config.ANTHROPIC_THINKING_BUDGET,
        });
      case "gemini":
        return createGeminiGenerator({
          ...generation,
          model: ref.model,
          apiKey: config.GEMINI_API_KEY ?? "",
          baseURL: config.GEMINI_BASE_URL,
          policy: policyFor("gemini"),
          temperature,
          thinkingBudget: config.GEMINI_THINKING_BUDGET,
        });
      case "sim":
        // The sim is deterministic and takes no temperature.
        return withFixedLatency(createSimGenerator({ model: ref.model, statsCache }), config.SIM_LATENCY_MS);
      default: {
        const unknown: never = ref.provider;
        throw new Error(`unhandled provider ${String(unknown)}`);
      }
    }
  };

  const embedder = (ref: ModelRef): Embedder => {
    switch (ref.provider) {
      case "openai":
        return createOpenAICompatibleEmbedder({ model: ref.model, apiKey: config.OPENAI_API_KEY, baseURL: config.OPENAI_BASE_URL, policy: policyFor("openai") });
      case "gemini":
        return createGeminiEmbedder({ model: ref.model, apiKey: config.GEMINI_API_KEY ?? "", baseURL: config.GEMINI_BASE_URL, policy: policyFor("gemini") });
      case "sim":
        return createSimEmbedder(ref.model);
      case "anthropic":
        // The schema rejects this; kept so the switch stays exhaustive.
        throw new Error("anthropic offers no embeddings API");
      default: {
        const unknown: never = ref.provider;
        throw new Error(`unhandled provider ${String(unknown)}`);
      }
    }
  };

  const [first, second] = config.ADRANK_GENERATORS;
  const [firstTemperature, secondTemperature] = config.ADRANK_GENERATOR_TEMPERATURES;
  return {
    generators: [generator(first, firstTemperature), generator(second, secondTemperature)],
    embedder: embedder(config.ADRANK_EMBEDDER),
    voters: config.voters.map((ref) => generator(ref, config.ADRANK_VOTER_TEMPERATURE)),
    warnings: warningsFor(config),
  };
}

function warningsFor(config: ModelsConfig): string[] {
  const [first, second] = config.ADRANK_GENERATORS;
  const roles: Array<[string, ModelRef[]]> = [
    ["ADRANK_GENERATORS", [first, second]],
    ["ADRANK_EMBEDDER", [config.ADRANK_EMBEDDER]],
    [config.ADRANK_VOTERS ? "ADRANK_VOTERS" : "ADRANK_VOTER", config.voters],
  ];
  const simRoles = roles.filter(([, refs]) => refs.some((r) => r.provider === "sim")).map(([role]) => role);
  const allSim = roles.every(([, refs]) => refs.every((r) => r.provider === "sim"));
  const warnings: string[] = [];
  if (allSim) {
    warnings.push(SIM_ONLY_WARNING);
  } else if (simRoles.length > 0) {
    warnings.push(`${simRoles.join(", ")} use the offline simulated model (sim): those answers are computed from image statistics, not written by a language model.`);
  }
  if (formatModelRef(first) === formatModelRef(second)) {
    warnings.push(`ADRANK_GENERATORS names ${formatModelRef(first)} twice: the two samples of each repetition come from one model.`);
  }
  const usesOpenAI = [first, second, config.ADRANK_EMBEDDER, ...config.voters].some((r) => r.provider === "openai");
  if (usesOpenAI && !config.OPENAI_API_KEY && config.OPENAI_BASE_URL.replace(/\/+$/, "") !== OPENAI_DEFAULT_BASE_URL) {
    warnings.push(`OPENAI_API_KEY is empty: requests to the OpenAI-compatible server at ${config.OPENAI_BASE_URL} carry no Authorization header.`);
  }
  if (config.SIM_LATENCY_MS > 0 && simRoles.length > 0) {
    warnings.push(`SIM_LATENCY_MS=${config.SIM_LATENCY_MS}: every sim generator call waits that long on purpose.`);
  }
  return warnings;
}
