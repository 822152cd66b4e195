import { loadConfig } from "@adrank/runtime";
import { withFixedLatency } from "../fixed-latency.ts";
import { createCallPolicy, type CallPolicy, type CallPolicyOptions } from "../resilience/call-policy.ts";
import { createImageStatsCache } from "../sim/image-stats.ts";
import { createSimEmbedder } from "../sim/sim-embedder.ts";
import { createSimGenerator } from "../sim/sim-generator.ts";
import type { Embedder, Generator } from "../types.ts";
import { builtInProfiles, embedderFor, generatorFor, type ResolvedProfile } from "./build-model.ts";
import { formatModelRef, type ModelRef } from "./model-ref.ts";
import type { ModelRole } from "./model-role.ts";
import { ModelsEnv, type ModelsConfig } from "./models-env.ts";
import { setupWarnings } from "./setup-warnings.ts";

export type { ModelRole } from "./model-role.ts";

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
  /** The configuration the set was built from (the preflight check reads the roles from it). */
  config: ModelsConfig;
}

/** Hooks for the retry policy of every real provider (logging retries, tests). */
export type ModelsFromEnvOptions = Pick<CallPolicyOptions, "onRetry" | "sleep" | "random" | "now">;

export const SIM_ONLY_WARNING =
  "No model provider is configured: the service is using the offline simulated model (sim) for generators, embedder and voter. Its answers are computed from image statistics and copy heuristics, not written by a language model, and every response says so.";

/**
 * Builds the models a service needs from its environment. Throws a ConfigError naming each
 * bad variable. Models of one provider (or profile) share one retry policy and concurrency limit.
 *
 * @example
 * const { generators, embedder, voters, warnings } = modelsFromEnv(process.env);
 * for (const w of warnings) logger.warn(w);
 */
export function modelsFromEnv(env: Record<string, string | undefined> = process.env, options: ModelsFromEnvOptions = {}): ModelSet {
  const config = loadConfig(ModelsEnv, env);
  const policies = new Map<string, CallPolicy>();
  const policyFor = (provider: string) => {
    let policy = policies.get(provider);
    if (!policy) {
      policy = createCallPolicy({ ...options, timeoutMs: config.MODEL_TIMEOUT_MS, maxRetries: config.MODEL_MAX_RETRIES, concurrency: config.MODEL_CONCURRENCY });
      policies.set(provider, policy);
    }
    return policy;
  };
  const statsCache = createImageStatsCache();
  const profiles = new Map<string, ResolvedProfile>([...builtInProfiles(config), ...config.profiles.map((p): [string, ResolvedProfile] => [p.name, p])]);
  const profileOf = (ref: ModelRef): ResolvedProfile => {
    const profile = profiles.get(ref.provider);
    // The schema has refused unknown providers already.
    if (!profile) throw new Error(`no provider profile "${ref.provider}"`);
    return profile;
  };

  const generation = { maxOutputTokens: config.MODEL_MAX_OUTPUT_TOKENS, answerRetries: config.MODEL_ANSWER_RETRIES };
  const generator = (ref: ModelRef, temperature: number, role: ModelRole): Generator => {
    if (ref.provider === "sim") return withFixedLatency(createSimGenerator({ model: ref.model, statsCache }), config.SIM_LATENCY_MS);
    return generatorFor(profileOf(ref), ref.model, { ...generation, temperature, policy: policyFor(ref.provider), role });
  };
  const embedder = (ref: ModelRef): Embedder => {
    if (ref.provider === "sim") return createSimEmbedder(ref.model);
    return embedderFor(profileOf(ref), ref.model, { policy: policyFor(ref.provider), role: "ADRANK_EMBEDDER" });
  };

  const [first, second] = config.ADRANK_GENERATORS;
  const [firstTemperature, secondTemperature] = config.ADRANK_GENERATOR_TEMPERATURES;
  const voterRole: ModelRole = config.ADRANK_VOTERS ? "ADRANK_VOTERS" : "ADRANK_VOTER";
  const set = {
    generators: [generator(first, firstTemperature, "ADRANK_GENERATORS"), generator(second, secondTemperature, "ADRANK_GENERATORS")] as [Generator, Generator],
    embedder: embedder(config.ADRANK_EMBEDDER),
    voters: config.voters.map((ref) => generator(ref, config.ADRANK_VOTER_TEMPERATURE, voterRole)),
  };
  return { ...set, warnings: [...warningsFor(config), ...setupWarnings(config, set, (ref) => profileOf(ref))], config };
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
  if (config.SIM_LATENCY_MS > 0 && simRoles.length > 0) {
    warnings.push(`SIM_LATENCY_MS=${config.SIM_LATENCY_MS}: every sim generator call waits that long on purpose.`);
  }
  return warnings;
}
