import { anthropicModelRules } from "../capabilities/anthropic.ts";
import { bedrockModelRules } from "../capabilities/bedrock.ts";
import { geminiModelRules } from "../capabilities/gemini.ts";
import { openaiModelRules, reasoningEffortFor } from "../capabilities/openai.ts";
import type { Embedder, Generator } from "../types.ts";
import type { ResolvedProfile } from "./build-model.ts";
import { formatModelRef, type ModelRef } from "./model-ref.ts";
import type { ModelsConfig } from "./models-env.ts";

/** The flavour the OpenAI adapter gives the built-in provider: OpenAI's own address, or another compatible server. */
const builtInFlavor = (baseURL: string) => (baseURL.replace(/\/+$/, "") === "https://api.openai.com/v1" ? "openai" : "compatible");

/** Whether the capability table knows this model, on this kind of endpoint. */
function isKnown(profile: ResolvedProfile, model: string): boolean {
  switch (profile.kind) {
    case "openai":
      return openaiModelRules(model, profile.variables ? builtInFlavor(profile.baseURL) : "openai").known;
    case "openrouter":
    case "ollama":
    case "compatible":
      return openaiModelRules(model, profile.kind).known;
    case "azure":
      return openaiModelRules(profile.deploymentModels[model] ?? model, "azure").known;
    case "anthropic":
      return anthropicModelRules(model).known;
    case "gemini":
    case "vertex":
      return geminiModelRules(model).known;
    case "bedrock":
      return bedrockModelRules(model).known;
    default: {
      const never: never = profile;
      return Boolean(never);
    }
  }
}

/**
 * What the operator should know at start about settings that will not do what they say: a
 * model the rules do not know (it gets the safe choice), a temperature or reasoning effort a
 * model does not take (not sent), a keyless OpenAI-compatible server.
 */
export function setupWarnings(
  config: ModelsConfig,
  set: { generators: readonly Generator[]; embedder: Embedder; voters: readonly Generator[] },
  profileOf: (ref: ModelRef) => ResolvedProfile,
): string[] {
  const warnings: string[] = [];
  const real = (ref: ModelRef) => ref.provider !== "sim";
  const roles: Array<[string, ModelRef]> = [
    ...config.ADRANK_GENERATORS.map((ref): [string, ModelRef] => ["ADRANK_GENERATORS", ref]),
    ["ADRANK_EMBEDDER", config.ADRANK_EMBEDDER],
    ...config.voters.map((ref): [string, ModelRef] => [config.ADRANK_VOTERS ? "ADRANK_VOTERS" : "ADRANK_VOTER", ref]),
  ];
  const warned = new Set<string>();
  for (const [variable, ref] of roles.filter(([, r]) => real(r))) {
    const name = formatModelRef(ref);
    if (warned.has(name)) continue;
    warned.add(name);
    const profile = profileOf(ref);
    const retiresOn = profile.kind === "anthropic" ? anthropicModelRules(ref.model).retiresOn : null;
    if (retiresOn) warnings.push(`${variable} names ${name}, which Anthropic retires on ${retiresOn}: choose its successor before then.`);
    if (!isKnown(profile, ref.model)) {
      warnings.push(
        `${variable} names ${name}, a model the capability table does not know (docs/models.md): it is called with the safe choice (no temperature, the modern token field, no reasoning or thinking settings). Run "npm run models -- check" to prove it answers.`,
      );
    }
    if ((profile.kind === "openai" || profile.kind === "azure" || profile.kind === "openrouter" || profile.kind === "ollama" || profile.kind === "compatible") && profile.reasoningEffort !== undefined) {
      const flavor = profile.kind === "openai" && profile.variables ? builtInFlavor(profile.baseURL) : profile.kind;
      const rules = openaiModelRules(profile.kind === "azure" ? (profile.deploymentModels[ref.model] ?? ref.model) : ref.model, flavor);
      if (rules.known && reasoningEffortFor(rules, profile.reasoningEffort) === null) {
        const setting = profile.variables ? "OPENAI_REASONING_EFFORT" : `${profile.prefix}REASONING_EFFORT`;
        warnings.push(
          rules.reasoningEfforts === null
            ? `${setting}=${profile.reasoningEffort} is not sent to ${name}, which takes no reasoning effort.`
            : `${setting}=${profile.reasoningEffort} is not sent to ${name}, which takes ${rules.reasoningEfforts.join(", ")}.`,
        );
      }
    }
  }

  const seats = config.ADRANK_GENERATORS.map((ref, seat) => ({ ref, seat, configured: config.ADRANK_GENERATOR_TEMPERATURES[seat]!, generator: set.generators[seat]! }));
  for (const { ref, seat, configured, generator } of seats) {
    if (real(ref) && generator.temperature === null) {
      warnings.push(`ADRANK_GENERATOR_TEMPERATURES seat ${seat + 1} (${configured}) is not sent to ${formatModelRef(ref)}: that model takes only its default temperature (or reasoning/thinking is on), so its samples differ by chance alone.`);
    }
  }
  const fixedVoters = [...new Set(config.voters.flatMap((ref, i) => (real(ref) && set.voters[i]?.temperature === null ? [formatModelRef(ref)] : [])))];
  if (fixedVoters.length > 0) {
    warnings.push(`ADRANK_VOTER_TEMPERATURE (${config.ADRANK_VOTER_TEMPERATURE}) is not sent to ${fixedVoters.join(", ")}: those models take only their default temperature.`);
  }

  const usesKeylessOpenAI = roles.some(([, r]) => r.provider === "openai");
  if (usesKeylessOpenAI && !config.OPENAI_API_KEY && config.OPENAI_BASE_URL.replace(/\/+$/, "") !== "https://api.openai.com/v1") {
    warnings.push(`OPENAI_API_KEY is empty: requests to the OpenAI-compatible server at ${config.OPENAI_BASE_URL} carry no Authorization header.`);
  }
  return warnings;
}
