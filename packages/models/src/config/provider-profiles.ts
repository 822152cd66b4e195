import { OPENAI_REASONING_EFFORTS, type OpenAIReasoningEffort } from "../adapters/openai-compatible.ts";

/**
 * Provider profiles: any number of named endpoints, each with its own kind, address,
 * credentials and options, usable side by side (OpenAI next to an Ollama box next to Azure).
 *
 *   ADRANK_PROVIDER_PROFILES=azure-eu,local
 *   ADRANK_PROFILE_AZURE_EU_KIND=azure
 *   ADRANK_PROFILE_AZURE_EU_BASE_URL=https://my-resource.openai.azure.com
 *   ADRANK_PROFILE_AZURE_EU_API_KEY=…
 *   ADRANK_PROFILE_LOCAL_KIND=ollama
 *   ADRANK_GENERATORS=azure-eu:gpt-4.1,local:qwen2.5vl:7b
 *
 * The profile name is what a model reference starts with. The built-in names (openai,
 * anthropic, gemini, sim) keep their own variables and cannot be redefined.
 */
export const PROFILE_KINDS = ["openai", "azure", "openrouter", "ollama", "compatible", "anthropic", "gemini", "vertex", "bedrock"] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

export const BUILT_IN_PROFILES = ["openai", "anthropic", "gemini", "sim"] as const;

/** What every profile has: its name and the variable prefix its settings use, for messages. */
interface ProfileBase {
  name: string;
  /** e.g. "ADRANK_PROFILE_AZURE_EU_" */
  prefix: string;
}

export interface OpenAIFamilyProfile extends ProfileBase {
  kind: "openai" | "openrouter" | "ollama" | "compatible";
  baseURL: string;
  apiKey: string | undefined;
  reasoningEffort: OpenAIReasoningEffort | undefined;
  reasoningBudget: number | undefined;
  tokenField: "max_tokens" | "max_completion_tokens" | undefined;
  /** OpenRouter's optional attribution headers. */
  appUrl: string | undefined;
  appTitle: string | undefined;
}

export interface AzureProfile extends ProfileBase {
  kind: "azure";
  baseURL: string;
  apiKey: string;
  apiVersion: string | undefined;
  /** Deployment name → the model it serves, whose rules apply (a deployment's name is the operator's choice). */
  deploymentModels: Record<string, string>;
  reasoningEffort: OpenAIReasoningEffort | undefined;
  reasoningBudget: number | undefined;
}

export interface AnthropicProfile extends ProfileBase {
  kind: "anthropic";
  baseURL: string | undefined;
  apiKey: string;
  thinkingBudget: number | undefined;
}

export interface GeminiProfile extends ProfileBase {
  kind: "gemini";
  baseURL: string | undefined;
  apiKey: string;
  apiVersion: string | undefined;
  thinkingBudget: number | undefined;
}

export interface VertexProfile extends ProfileBase {
  kind: "vertex";
  project: string;
  location: string;
  /** A service-account key file; its token_uri is where the access token is exchanged. */
  credentialsFile: string;
  baseURL: string | undefined;
  apiVersion: string | undefined;
  thinkingBudget: number | undefined;
}

export interface BedrockProfile extends ProfileBase {
  kind: "bedrock";
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string | undefined;
  endpoint: string | undefined;
  thinkingBudget: number | undefined;
}

export type ProviderProfile = OpenAIFamilyProfile | AzureProfile | AnthropicProfile | GeminiProfile | VertexProfile | BedrockProfile;

export interface ProfileIssue {
  variable: string;
  message: string;
}

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const OLLAMA_DEFAULT_BASE_URL = "http://127.0.0.1:11434/v1";
const OPENROUTER_DEFAULT_BASE_URL = "https://openrouter.ai/api/v1";

export const profilePrefix = (name: string) => `ADRANK_PROFILE_${name.toUpperCase().replaceAll("-", "_")}_`;

/**
 * Reads ADRANK_PROVIDER_PROFILES and each profile's ADRANK_PROFILE_<NAME>_* settings. Every
 * problem comes back as an issue naming its variable; nothing throws.
 *
 * @example
 * readProviderProfiles({ ADRANK_PROVIDER_PROFILES: "local", ADRANK_PROFILE_LOCAL_KIND: "ollama" });
 * // { profiles: [{ name: "local", kind: "ollama", baseURL: "http://127.0.0.1:11434/v1", … }], issues: [] }
 */
export function readProviderProfiles(env: Record<string, string | undefined>): { profiles: ProviderProfile[]; issues: ProfileIssue[] } {
  const issues: ProfileIssue[] = [];
  const list = (env.ADRANK_PROVIDER_PROFILES ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const profiles: ProviderProfile[] = [];
  const seen = new Set<string>();
  for (const name of list) {
    if (!NAME.test(name)) {
      issues.push({ variable: "ADRANK_PROVIDER_PROFILES", message: `"${name}" is not a profile name: use lower-case letters, digits and "-", starting with a letter, at most 32 characters` });
      continue;
    }
    if ((BUILT_IN_PROFILES as readonly string[]).includes(name)) {
      issues.push({ variable: "ADRANK_PROVIDER_PROFILES", message: `"${name}" is a built-in provider configured by its own variables; give the profile another name` });
      continue;
    }
    if (seen.has(name)) {
      issues.push({ variable: "ADRANK_PROVIDER_PROFILES", message: `names profile "${name}" twice` });
      continue;
    }
    seen.add(name);
    const profile = readProfile(name, env, issues);
    if (profile) profiles.push(profile);
  }
  return { profiles, issues };
}

function readProfile(name: string, env: Record<string, string | undefined>, issues: ProfileIssue[]): ProviderProfile | null {
  const prefix = profilePrefix(name);
  const get = (key: string): string | undefined => {
    const v = env[prefix + key]?.trim();
    return v ? v : undefined;
  };
  const issue = (key: string, message: string) => issues.push({ variable: prefix + key, message });
  const required = (key: string, why: string): string => {
    const v = get(key);
    if (v === undefined) issue(key, `required for a profile of kind ${why}`);
    return v ?? "";
  };
  const url = (key: string): string | undefined => {
    const v = get(key);
    if (v === undefined) return undefined;
    try {
      const parsed = new URL(v);
      if (parsed.protocol === "https:" || parsed.protocol === "http:") return v.replace(/\/+$/, "");
    } catch {
      // reported below
    }
    issue(key, `must be an http(s) URL, got "${v}"`);
    return undefined;
  };
  const int = (key: string, min: number, max: number): number | undefined => {
    const v = get(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    issue(key, `must be a whole number from ${min} to ${max}, got "${v}"`);
    return undefined;
  };
  const effort = (): OpenAIReasoningEffort | undefined => {
    const v = get("REASONING_EFFORT");
    if (v === undefined) return undefined;
    if ((OPENAI_REASONING_EFFORTS as readonly string[]).includes(v)) return v as OpenAIReasoningEffort;
    issue("REASONING_EFFORT", `must be one of ${OPENAI_REASONING_EFFORTS.join(", ")}, got "${v}"`);
    return undefined;
  };
  const thinkingBudget = () => int("THINKING_BUDGET", -1, 128_000);
  const oneOf = (key: string, values: readonly string[]): string | undefined => {
    const v = get(key);
    if (v === undefined || values.includes(v)) return v;
    issue(key, `must be one of ${values.join(", ")}, got "${v}"`);
    return undefined;
  };

  const kind = get("KIND");
  if (kind === undefined || !(PROFILE_KINDS as readonly string[]).includes(kind)) {
    issue("KIND", kind === undefined ? `required: one of ${PROFILE_KINDS.join(", ")}` : `"${kind}" is not a profile kind (known: ${PROFILE_KINDS.join(", ")})`);
    return null;
  }
  const base = { name, prefix };
  switch (kind as ProfileKind) {
    case "openai":
    case "openrouter":
    case "ollama":
    case "compatible": {
      const k = kind as OpenAIFamilyProfile["kind"];
      const defaultUrl = k === "ollama" ? OLLAMA_DEFAULT_BASE_URL : k === "openrouter" ? OPENROUTER_DEFAULT_BASE_URL : k === "openai" ? "https://api.openai.com/v1" : undefined;
      const baseURL = url("BASE_URL") ?? defaultUrl;
      if (baseURL === undefined && get("BASE_URL") === undefined) issue("BASE_URL", "required for a profile of kind compatible: the server's OpenAI-compatible /v1 address");
      const apiKey = get("API_KEY");
      if (apiKey === undefined && (k === "openai" || k === "openrouter")) issue("API_KEY", `required for a profile of kind ${k}`);
      const tokenField = get("TOKEN_FIELD");
      if (tokenField !== undefined && tokenField !== "max_tokens" && tokenField !== "max_completion_tokens") issue("TOKEN_FIELD", `must be max_tokens or max_completion_tokens, got "${tokenField}"`);
      return {
        ...base,
        kind: k,
        baseURL: baseURL ?? "",
        apiKey,
        reasoningEffort: effort(),
        reasoningBudget: int("REASONING_BUDGET", 1, 131_072),
        tokenField: tokenField === "max_tokens" || tokenField === "max_completion_tokens" ? tokenField : undefined,
        appUrl: get("APP_URL"),
        appTitle: get("APP_TITLE"),
      };
    }
    case "azure": {
      const baseURL = url("BASE_URL");
      if (baseURL === undefined && get("BASE_URL") === undefined) issue("BASE_URL", "required for a profile of kind azure: the resource's endpoint, e.g. https://my-resource.openai.azure.com");
      const deploymentModels: Record<string, string> = {};
      for (const pair of (get("DEPLOYMENT_MODELS") ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
        const [deployment, model] = pair.split("=").map((s) => s.trim());
        if (!deployment || !model) issue("DEPLOYMENT_MODELS", `"${pair}" is not deployment=model (e.g. "ranker=gpt-4.1")`);
        else deploymentModels[deployment] = model;
      }
      return { ...base, kind: "azure", baseURL: baseURL ?? "", apiKey: required("API_KEY", "azure"), apiVersion: get("API_VERSION"), deploymentModels, reasoningEffort: effort(), reasoningBudget: int("REASONING_BUDGET", 1, 131_072) };
    }
    case "anthropic":
      return { ...base, kind: "anthropic", baseURL: url("BASE_URL"), apiKey: required("API_KEY", "anthropic"), thinkingBudget: thinkingBudget() };
    case "gemini":
      return { ...base, kind: "gemini", baseURL: url("BASE_URL"), apiKey: required("API_KEY", "gemini"), apiVersion: oneOf("API_VERSION", ["v1beta", "v1"]), thinkingBudget: thinkingBudget() };
    case "vertex":
      return {
        ...base,
        kind: "vertex",
        project: required("PROJECT", "vertex"),
        location: required("LOCATION", "vertex"),
        credentialsFile: required("CREDENTIALS_FILE", "vertex (a service-account key file)"),
        baseURL: url("BASE_URL"),
        apiVersion: oneOf("API_VERSION", ["v1", "v1beta1"]),
        thinkingBudget: thinkingBudget(),
      };
    case "bedrock":
      return {
        ...base,
        kind: "bedrock",
        region: required("REGION", "bedrock"),
        accessKeyId: required("ACCESS_KEY_ID", "bedrock"),
        secretAccessKey: required("SECRET_ACCESS_KEY", "bedrock"),
        sessionToken: get("SESSION_TOKEN"),
        endpoint: url("ENDPOINT"),
        thinkingBudget: thinkingBudget(),
      };
    default: {
      const never: never = kind as never;
      issue("KIND", `unhandled kind ${String(never)}`);
      return null;
    }
  }
}
