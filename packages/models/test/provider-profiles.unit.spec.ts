import { describe, expect, it } from "vitest";
import { configError } from "./support/config-error.ts";
import { modelsFromEnv, readProviderProfiles } from "../src/index.ts";


const names = (models: { generators: ReadonlyArray<{ provider: string; model: string }> }) => models.generators.map((g) => `${g.provider}:${g.model}`);

describe("provider profiles (ADRANK_PROVIDER_PROFILES)", () => {
  it("puts OpenAI, an Ollama box and Azure side by side, each with its own address and key", () => {
    const models = modelsFromEnv({
      ADRANK_PROVIDER_PROFILES: "local, azure-eu",
      ADRANK_PROFILE_LOCAL_KIND: "ollama",
      ADRANK_PROFILE_AZURE_EU_KIND: "azure",
      ADRANK_PROFILE_AZURE_EU_BASE_URL: "https://adrank-eu.openai.azure.com",
      ADRANK_PROFILE_AZURE_EU_API_KEY: "azure-key",
      ADRANK_PROFILE_AZURE_EU_DEPLOYMENT_MODELS: "ranker=gpt-4.1",
      ADRANK_GENERATORS: "local:qwen2.5vl:7b,azure-eu:ranker",
      ADRANK_EMBEDDER: "openai:text-embedding-3-small",
      ADRANK_VOTER: "openai:gpt-5-mini",
      OPENAI_API_KEY: "sk-x",
    });
    expect(names(models)).toEqual(["local:qwen2.5vl:7b", "azure-eu:ranker"]);
    expect(`${models.embedder.provider}:${models.embedder.model}`).toBe("openai:text-embedding-3-small");
    expect(models.config.profiles.map((p) => [p.name, p.kind])).toEqual([
      ["local", "ollama"],
      ["azure-eu", "azure"],
    ]);
  });

  it("keeps today's variables working with no profile at all", () => {
    const models = modelsFromEnv({ ADRANK_GENERATORS: "openai:gpt-4.1,gemini:gemini-2.5-flash", OPENAI_API_KEY: "sk-x", GEMINI_API_KEY: "g" });
    expect(names(models)).toEqual(["openai:gpt-4.1", "gemini:gemini-2.5-flash"]);
    expect(models.config.profiles).toEqual([]);
  });

  it("names the variable of every profile mistake, and never echoes a key", () => {
    const message = configError({
      ADRANK_PROVIDER_PROFILES: "openai,Bad_Name,vllm,eu,eu,cloud,aws",
      ADRANK_PROFILE_VLLM_KIND: "compatible",
      ADRANK_PROFILE_EU_KIND: "azure",
      ADRANK_PROFILE_EU_BASE_URL: "ftp://nope",
      ADRANK_PROFILE_CLOUD_KIND: "mainframe",
      ADRANK_PROFILE_AWS_KIND: "bedrock",
      ADRANK_PROFILE_AWS_SECRET_ACCESS_KEY: "very-secret-aws-key",
    });
    expect(message).toMatch(/^ {2}ADRANK_PROVIDER_PROFILES: "openai" is a built-in provider/m);
    expect(message).toMatch(/^ {2}ADRANK_PROVIDER_PROFILES: "Bad_Name" is not a profile name/m);
    expect(message).toMatch(/^ {2}ADRANK_PROVIDER_PROFILES: names profile "eu" twice/m);
    expect(message).toMatch(/^ {2}ADRANK_PROFILE_VLLM_BASE_URL: required for a profile of kind compatible/m);
    expect(message).toMatch(/^ {2}ADRANK_PROFILE_EU_BASE_URL: must be an http\(s\) URL/m);
    expect(message).toMatch(/^ {2}ADRANK_PROFILE_EU_API_KEY: required for a profile of kind azure/m);
    expect(message).toMatch(/^ {2}ADRANK_PROFILE_CLOUD_KIND: "mainframe" is not a profile kind/m);
    expect(message).toMatch(/^ {2}ADRANK_PROFILE_AWS_REGION: required/m);
    expect(message).toMatch(/^ {2}ADRANK_PROFILE_AWS_ACCESS_KEY_ID: required/m);
    expect(message).not.toContain("very-secret-aws-key");
  });

  it("refuses a model reference to a provider that is neither built in nor a profile, listing what exists", () => {
    expect(configError({ ADRANK_PROVIDER_PROFILES: "local", ADRANK_PROFILE_LOCAL_KIND: "ollama", ADRANK_VOTER: "mistral:large" })).toMatch(
      /^ {2}ADRANK_VOTER: unknown provider "mistral" in "mistral:large" \(known: openai, anthropic, gemini, sim, local; add a profile to ADRANK_PROVIDER_PROFILES/m,
    );
  });

  it("refuses an Anthropic profile as the embedder", () => {
    expect(configError({ ADRANK_PROVIDER_PROFILES: "claude", ADRANK_PROFILE_CLAUDE_KIND: "anthropic", ADRANK_PROFILE_CLAUDE_API_KEY: "k", ADRANK_EMBEDDER: "claude:claude-sonnet-4-6" })).toMatch(
      /^ {2}ADRANK_EMBEDDER: anthropic offers no embeddings API/m,
    );
  });

  it("reads each kind's own settings", () => {
    const { profiles, issues } = readProviderProfiles({
      ADRANK_PROVIDER_PROFILES: "router,vertex-eu,aws",
      ADRANK_PROFILE_ROUTER_KIND: "openrouter",
      ADRANK_PROFILE_ROUTER_API_KEY: "or-key",
      ADRANK_PROFILE_ROUTER_APP_TITLE: "adrank",
      ADRANK_PROFILE_ROUTER_REASONING_EFFORT: "low",
      ADRANK_PROFILE_VERTEX_EU_KIND: "vertex",
      ADRANK_PROFILE_VERTEX_EU_PROJECT: "p",
      ADRANK_PROFILE_VERTEX_EU_LOCATION: "europe-west4",
      ADRANK_PROFILE_VERTEX_EU_CREDENTIALS_FILE: "/etc/adrank/sa.json",
      ADRANK_PROFILE_AWS_KIND: "bedrock",
      ADRANK_PROFILE_AWS_REGION: "eu-central-1",
      ADRANK_PROFILE_AWS_ACCESS_KEY_ID: "AKIA",
      ADRANK_PROFILE_AWS_SECRET_ACCESS_KEY: "s",
      ADRANK_PROFILE_AWS_THINKING_BUDGET: "2048",
    });
    expect(issues).toEqual([]);
    expect(profiles).toMatchObject([
      { name: "router", kind: "openrouter", baseURL: "https://openrouter.ai/api/v1", apiKey: "or-key", appTitle: "adrank", reasoningEffort: "low" },
      { name: "vertex-eu", kind: "vertex", project: "p", location: "europe-west4", credentialsFile: "/etc/adrank/sa.json" },
      { name: "aws", kind: "bedrock", region: "eu-central-1", accessKeyId: "AKIA", secretAccessKey: "s", thinkingBudget: 2048 },
    ]);
  });

  it("stops with the setting's name when a model cannot take the configured thinking budget", () => {
    expect(configError({ ADRANK_GENERATORS: "sim:a,anthropic:claude-haiku-4-5", ANTHROPIC_API_KEY: "k", ANTHROPIC_THINKING_BUDGET: "100000" })).toMatch(
      /^ {2}ANTHROPIC_THINKING_BUDGET: .*thinking budget must be below that, got 100000 \(model anthropic:claude-haiku-4-5 in ADRANK_GENERATORS\)/m,
    );
  });

  it("stops with the variable's name when a Vertex key file cannot be read", () => {
    const message = configError({
      ADRANK_PROVIDER_PROFILES: "vx",
      ADRANK_PROFILE_VX_KIND: "vertex",
      ADRANK_PROFILE_VX_PROJECT: "p",
      ADRANK_PROFILE_VX_LOCATION: "us-central1",
      ADRANK_PROFILE_VX_CREDENTIALS_FILE: "/nonexistent/sa.json",
      ADRANK_VOTER: "vx:gemini-2.5-flash",
    });
    expect(message).toMatch(/^ {2}ADRANK_PROFILE_VX_CREDENTIALS_FILE: cannot read a service-account key from \/nonexistent\/sa.json/m);
  });
});
