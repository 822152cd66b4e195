import { readFileSync } from "node:fs";
import { ConfigError } from "@adrank/runtime";
import { createAnthropicGenerator } from "../adapters/anthropic.ts";
import { createBedrockEmbedder, createBedrockGenerator } from "../adapters/bedrock.ts";
import { createGeminiEmbedder, createGeminiGenerator, type GeminiApiVersion } from "../adapters/gemini.ts";
import { createVertexEmbedder, createVertexGenerator, type ServiceAccountKey, type VertexApiVersion } from "../adapters/vertex.ts";
import type { GenerationOptions } from "../adapters/generation-options.ts";
import { createOpenAICompatibleEmbedder, createOpenAICompatibleGenerator } from "../adapters/openai-compatible.ts";
import type { CallPolicy } from "../resilience/call-policy.ts";
import type { ModelSettings } from "../resilience/model-settings.ts";
import type { Embedder, Generator } from "../types.ts";
import type { ModelRole } from "./model-role.ts";
import type { ModelsConfig } from "./models-env.ts";
import type { OpenAIFamilyProfile, ProviderProfile } from "./provider-profiles.ts";

/**
 * A provider as the adapters need it: a profile from ADRANK_PROVIDER_PROFILES, or one of the
 * built-in openai, anthropic and gemini, whose settings keep their historical variable names.
 */
export type ResolvedProfile = ProviderProfile & { variables?: { key: string; endpoint: string; options: string } };

/** The built-in providers as profiles, from today's variables, so every deployment keeps working. */
export function builtInProfiles(config: ModelsConfig): Array<[string, ResolvedProfile]> {
  return [
    [
      "openai",
      {
        name: "openai",
        prefix: "OPENAI_",
        kind: "openai",
        baseURL: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY,
        reasoningEffort: config.OPENAI_REASONING_EFFORT,
        reasoningBudget: config.OPENAI_REASONING_BUDGET,
        tokenField: undefined,
        appUrl: undefined,
        appTitle: undefined,
        variables: { key: "OPENAI_API_KEY", endpoint: "OPENAI_BASE_URL", options: "OPENAI_REASONING_EFFORT or ADRANK_GENERATOR_TEMPERATURES / ADRANK_VOTER_TEMPERATURE" },
      } satisfies OpenAIFamilyProfile & ResolvedProfile,
    ],
    [
      "anthropic",
      {
        name: "anthropic",
        prefix: "ANTHROPIC_",
        kind: "anthropic",
        baseURL: config.ANTHROPIC_BASE_URL,
        apiKey: config.ANTHROPIC_API_KEY ?? "",
        thinkingBudget: config.ANTHROPIC_THINKING_BUDGET,
        variables: { key: "ANTHROPIC_API_KEY", endpoint: "ANTHROPIC_BASE_URL", options: "ANTHROPIC_THINKING_BUDGET" },
      },
    ],
    [
      "gemini",
      {
        name: "gemini",
        prefix: "GEMINI_",
        kind: "gemini",
        baseURL: config.GEMINI_BASE_URL,
        apiKey: config.GEMINI_API_KEY ?? "",
        apiVersion: config.GEMINI_API_VERSION,
        thinkingBudget: config.GEMINI_THINKING_BUDGET,
        variables: { key: "GEMINI_API_KEY", endpoint: "GEMINI_BASE_URL", options: "GEMINI_THINKING_BUDGET or GEMINI_API_VERSION" },
      },
    ],
  ];
}

/** The names of the settings behind one model, for the operator's fix sentence. */
export function settingsOf(profile: ResolvedProfile, role: ModelRole): ModelSettings {
  if (profile.variables) return { model: role, ...profile.variables };
  const p = profile.prefix;
  switch (profile.kind) {
    case "vertex":
      return { model: role, key: `${p}CREDENTIALS_FILE`, endpoint: `${p}PROJECT / ${p}LOCATION / ${p}BASE_URL`, options: `${p}THINKING_BUDGET or ${p}API_VERSION` };
    case "bedrock":
      return { model: role, key: `${p}ACCESS_KEY_ID / ${p}SECRET_ACCESS_KEY`, endpoint: `${p}REGION / ${p}ENDPOINT`, options: `${p}THINKING_BUDGET` };
    case "anthropic":
      return { model: role, key: `${p}API_KEY`, endpoint: `${p}BASE_URL`, options: `${p}THINKING_BUDGET` };
    case "gemini":
      return { model: role, key: `${p}API_KEY`, endpoint: `${p}BASE_URL`, options: `${p}THINKING_BUDGET or ${p}API_VERSION` };
    case "azure":
      return { model: role, key: `${p}API_KEY`, endpoint: `${p}BASE_URL`, options: `${p}API_VERSION, ${p}DEPLOYMENT_MODELS or ${p}REASONING_EFFORT` };
    default:
      return { model: role, key: `${p}API_KEY`, endpoint: `${p}BASE_URL`, options: `${p}REASONING_EFFORT or ${p}TOKEN_FIELD` };
  }
}

export interface BuildOptions extends GenerationOptions {
  policy: CallPolicy;
  role: ModelRole;
}

/** Reads a Vertex service-account key file once, at start, so a wrong path stops the service with its name. */
function serviceAccount(profile: Extract<ProviderProfile, { kind: "vertex" }>): ServiceAccountKey {
  try {
    return JSON.parse(readFileSync(profile.credentialsFile, "utf8")) as ServiceAccountKey;
  } catch (err) {
    throw new ConfigError(`invalid configuration:\n  ${profile.prefix}CREDENTIALS_FILE: cannot read a service-account key from ${profile.credentialsFile} (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
}

/**
 * The generator of one configured model on its provider profile. An option the model cannot
 * take (a thinking budget beyond its output, say) stops the service at start with the setting's name.
 */
export function generatorFor(profile: ResolvedProfile, model: string, options: BuildOptions): Generator {
  try {
    return buildGenerator(profile, model, options);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    const settings = settingsOf(profile, options.role);
    throw new ConfigError(`invalid configuration:\n  ${settings.options ?? options.role}: ${err.message} (model ${profile.name}:${model} in ${options.role})`, { cause: err });
  }
}

type VertexProfileOf = Extract<ResolvedProfile, { kind: "vertex" }>;

/** What a generator and an embedder of one profile share: where, as whom, under which policy. */
interface Shared {
  model: string;
  policy: CallPolicy;
  settings: ModelSettings;
}

const openaiConnection = (profile: Extract<ResolvedProfile, { kind: "openai" | "openrouter" | "ollama" | "compatible" }>, shared: Shared) => ({
  ...shared,
  provider: profile.name,
  // The built-in openai provider serves any OpenAI-compatible server: the adapter tells them apart by address.
  ...(profile.variables ? {} : { flavor: profile.kind }),
  apiKey: profile.apiKey,
  baseURL: profile.baseURL,
  ...(profile.appUrl ? { appUrl: profile.appUrl } : {}),
  ...(profile.appTitle ? { appTitle: profile.appTitle } : {}),
});

const azureConnection = (profile: Extract<ResolvedProfile, { kind: "azure" }>, shared: Shared) => ({
  ...shared,
  provider: profile.name,
  flavor: "azure" as const,
  apiKey: profile.apiKey,
  baseURL: profile.baseURL,
  ...(profile.apiVersion ? { apiVersion: profile.apiVersion } : {}),
});

const geminiConnection = (profile: Extract<ResolvedProfile, { kind: "gemini" }>, shared: Shared) => ({
  ...shared,
  provider: profile.name,
  apiKey: profile.apiKey,
  ...(profile.baseURL ? { baseURL: profile.baseURL } : {}),
  ...(profile.apiVersion ? { apiVersion: profile.apiVersion as GeminiApiVersion } : {}),
});

const vertexConnection = (profile: VertexProfileOf, shared: Shared) => ({
  ...shared,
  provider: profile.name,
  project: profile.project,
  location: profile.location,
  serviceAccount: serviceAccount(profile),
  ...(profile.baseURL ? { baseURL: profile.baseURL } : {}),
  ...(profile.apiVersion ? { apiVersion: profile.apiVersion as VertexApiVersion } : {}),
});

const bedrockConnection = (profile: Extract<ResolvedProfile, { kind: "bedrock" }>, shared: Shared) => ({
  ...shared,
  provider: profile.name,
  region: profile.region,
  credentials: { accessKeyId: profile.accessKeyId, secretAccessKey: profile.secretAccessKey, ...(profile.sessionToken ? { sessionToken: profile.sessionToken } : {}) },
  ...(profile.endpoint ? { endpoint: profile.endpoint } : {}),
});

function buildGenerator(profile: ResolvedProfile, model: string, options: BuildOptions): Generator {
  const { policy, role, ...generation } = options;
  const shared: Shared = { model, policy, settings: settingsOf(profile, role) };
  switch (profile.kind) {
    case "openai":
    case "openrouter":
    case "ollama":
    case "compatible":
      return createOpenAICompatibleGenerator({
        ...generation,
        ...openaiConnection(profile, shared),
        reasoningEffort: profile.reasoningEffort,
        reasoningBudget: profile.reasoningBudget,
        ...(profile.tokenField ? { maxTokensField: profile.tokenField } : {}),
      });
    case "azure":
      return createOpenAICompatibleGenerator({
        ...generation,
        ...azureConnection(profile, shared),
        reasoningEffort: profile.reasoningEffort,
        reasoningBudget: profile.reasoningBudget,
        ...(profile.deploymentModels[model] ? { rulesModel: profile.deploymentModels[model] } : {}),
      });
    case "anthropic":
      return createAnthropicGenerator({ ...generation, ...shared, provider: profile.name, apiKey: profile.apiKey, baseURL: profile.baseURL, thinkingBudget: profile.thinkingBudget });
    case "gemini":
      return createGeminiGenerator({ ...generation, ...geminiConnection(profile, shared), thinkingBudget: profile.thinkingBudget });
    case "vertex":
      return createVertexGenerator({ ...generation, ...vertexConnection(profile, shared), thinkingBudget: profile.thinkingBudget });
    case "bedrock":
      return createBedrockGenerator({ ...generation, ...bedrockConnection(profile, shared), thinkingBudget: profile.thinkingBudget });
    default: {
      const never: never = profile;
      throw new Error(`unhandled provider kind ${String((never as ProviderProfile).kind)}`);
    }
  }
}

/** The embedder of one configured model on its provider profile. The schema refuses kinds without embeddings. */
export function embedderFor(profile: ResolvedProfile, model: string, options: { policy: CallPolicy; role: ModelRole }): Embedder {
  const shared: Shared = { model, policy: options.policy, settings: settingsOf(profile, options.role) };
  switch (profile.kind) {
    case "openai":
    case "openrouter":
    case "ollama":
    case "compatible":
      return createOpenAICompatibleEmbedder(openaiConnection(profile, shared));
    case "azure":
      return createOpenAICompatibleEmbedder(azureConnection(profile, shared));
    case "gemini":
      return createGeminiEmbedder(geminiConnection(profile, shared));
    case "vertex":
      return createVertexEmbedder(vertexConnection(profile, shared));
    case "bedrock":
      return createBedrockEmbedder(bedrockConnection(profile, shared));
    case "anthropic":
      // The schema refuses it; kept so the switch stays exhaustive.
      throw new Error("anthropic offers no embeddings API");
    default: {
      const never: never = profile;
      throw new Error(`unhandled provider kind ${String((never as ProviderProfile).kind)}`);
    }
  }
}
