import { ConfigError } from "@adrank/runtime";
import { describe, expect, it } from "vitest";
import { isModelError, ModelsEnv, modelsFromEnv, parseModelRef, SIM_ONLY_WARNING, withFixedLatency, createSimGenerator } from "../src/index.ts";

const configError = (env: Record<string, string>): string => {
  try {
    modelsFromEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return String((err as Error).message);
  }
  throw new Error("expected a ConfigError");
};

describe("modelsFromEnv", () => {
  it("runs entirely on two distinct sim generators, the sim embedder and the sim voter when nothing is configured, and says so", () => {
    const models = modelsFromEnv({});
    expect(models.generators.map((g) => `${g.provider}:${g.model}`)).toEqual(["sim:sim-gen-a", "sim:sim-gen-b"]);
    expect(`${models.embedder.provider}:${models.embedder.model}`).toBe("sim:sim-embed");
    expect(`${models.voter.provider}:${models.voter.model}`).toBe("sim:sim-voter");
    expect(models.warnings).toContain(SIM_ONLY_WARNING);
    expect(SIM_ONLY_WARNING).toMatch(/offline simulated model/);
  });

  it("builds real adapters from provider:model pairs and stops warning about the sim", () => {
    const models = modelsFromEnv({
      ADRANK_GENERATORS: "openai:gpt-4o-mini, anthropic:claude-sonnet-4-6",
      ADRANK_EMBEDDER: "gemini:gemini-embedding-001",
      ADRANK_VOTER: "gemini:gemini-2.5-flash",
      OPENAI_API_KEY: "sk-x",
      ANTHROPIC_API_KEY: "sk-ant-x",
      GEMINI_API_KEY: "AIza-x",
    });
    expect(models.generators.map((g) => `${g.provider}:${g.model}`)).toEqual(["openai:gpt-4o-mini", "anthropic:claude-sonnet-4-6"]);
    expect(`${models.embedder.provider}:${models.embedder.model}`).toBe("gemini:gemini-embedding-001");
    expect(models.voter.provider).toBe("gemini");
    expect(models.warnings).toEqual([]);
  });

  it("requires exactly two generators", () => {
    expect(configError({ ADRANK_GENERATORS: "sim:one" })).toMatch(/ADRANK_GENERATORS: must name exactly two generators/);
    expect(configError({ ADRANK_GENERATORS: "sim:a,sim:b,sim:c" })).toMatch(/ADRANK_GENERATORS.*got 3/);
  });

  it("names the missing key of a configured provider", () => {
    expect(configError({ ADRANK_GENERATORS: "sim:a,anthropic:claude-sonnet-4-6" })).toMatch(/ANTHROPIC_API_KEY: required because ADRANK_GENERATORS uses provider anthropic/);
    expect(configError({ ADRANK_VOTER: "gemini:gemini-2.5-flash" })).toMatch(/GEMINI_API_KEY: required because ADRANK_VOTER/);
    expect(configError({ ADRANK_EMBEDDER: "openai:text-embedding-3-small" })).toMatch(/OPENAI_API_KEY: required/);
  });

  it("lets an OpenAI-compatible local server run without a key, with a warning", () => {
    const models = modelsFromEnv({ ADRANK_GENERATORS: "openai:llava:13b,openai:qwen2.5vl:7b", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(models.generators.map((g) => g.model)).toEqual(["llava:13b", "qwen2.5vl:7b"]);
    expect(models.warnings.join(" ")).toMatch(/OPENAI_API_KEY is empty/);
  });

  it("rejects an unknown provider and anthropic as embedder, with the variable named", () => {
    expect(configError({ ADRANK_VOTER: "mistral:large" })).toMatch(/ADRANK_VOTER: unknown provider "mistral"/);
    expect(configError({ ADRANK_EMBEDDER: "anthropic:claude-sonnet-4-6", ANTHROPIC_API_KEY: "k" })).toMatch(/ADRANK_EMBEDDER: anthropic offers no embeddings API/);
  });

  it("never puts a key into an error message", () => {
    expect(configError({ ADRANK_GENERATORS: "openai:x", OPENAI_API_KEY: "sk-very-secret" })).not.toContain("sk-very-secret");
  });

  it("validates numeric limits", () => {
    expect(configError({ MODEL_CONCURRENCY: "0" })).toMatch(/MODEL_CONCURRENCY/);
    expect(configError({ MODEL_TIMEOUT_MS: "soon" })).toMatch(/MODEL_TIMEOUT_MS/);
  });

  it("gives sim generators a fixed artificial latency from SIM_LATENCY_MS, ended early by the signal", async () => {
    const { generators, warnings } = modelsFromEnv({ SIM_LATENCY_MS: "150" });
    expect(warnings.join(" ")).toMatch(/SIM_LATENCY_MS=150/);
    const started = performance.now();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const err = await generators[0].generate({ system: "", user: "", images: [], signal: controller.signal, simHints: { task: "rate", goal: "purchase-intent", assetType: "Social Media Post", platform: null, copy: { adHeadline: "Hi" }, demographics: {}, repetition: 0, generatorIndex: 0 } }).catch((e: unknown) => e);
    expect(isModelError(err) && err.kind).toBe("aborted");
    expect(performance.now() - started).toBeLessThan(140);
  });
});

describe("ADRANK_ALLOW_SIM", () => {
  /** Every role on a real provider; each test puts sim into the roles it is about. */
  const real = {
    ADRANK_GENERATORS: "openai:gpt-4o-mini,openai:gpt-4o",
    ADRANK_EMBEDDER: "openai:text-embedding-3-small",
    ADRANK_VOTER: "openai:gpt-4o-mini",
    OPENAI_API_KEY: "sk-x",
  };
  const roles = ["ADRANK_GENERATORS", "ADRANK_EMBEDDER", "ADRANK_VOTER"] as const;
  const simIn: Record<(typeof roles)[number], string> = { ADRANK_GENERATORS: "openai:gpt-4o-mini,sim:sim-gen-b", ADRANK_EMBEDDER: "sim:sim-embed", ADRANK_VOTER: "sim:sim-voter" };

  it("allows the sim by default, unset or empty, and when set to true", () => {
    expect(ModelsEnv.parse({}).ADRANK_ALLOW_SIM).toBe(true);
    expect(modelsFromEnv({}).voter.provider).toBe("sim");
    expect(modelsFromEnv({ ADRANK_ALLOW_SIM: "" }).voter.provider).toBe("sim");
    expect(modelsFromEnv({ ADRANK_ALLOW_SIM: "true" }).voter.provider).toBe("sim");
  });

  it.each(roles)("refuses sim in %s alone when false, in one line naming that role and the way out", (role) => {
    const message = configError({ ...real, [role]: simIn[role], ADRANK_ALLOW_SIM: "false" });
    const [header, ...problems] = message.split("\n");
    expect(header).toBe("invalid configuration:");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^  ADRANK_ALLOW_SIM: is false but ${role} uses the offline simulated model \\(sim\\)`));
    expect(problems[0]).toContain("set ADRANK_ALLOW_SIM=true to accept simulated scores knowingly");
    for (const other of roles.filter((r) => r !== role)) expect(problems[0]).not.toContain(other);
  });

  it("names every sim role when nothing is configured", () => {
    expect(configError({ ADRANK_ALLOW_SIM: "false" })).toMatch(/ADRANK_ALLOW_SIM: is false but ADRANK_GENERATORS, ADRANK_EMBEDDER and ADRANK_VOTER use the offline simulated model/);
    expect(configError({ ADRANK_ALLOW_SIM: "0" })).toMatch(/ADRANK_ALLOW_SIM: is false/);
  });

  it("loads when false and no role uses sim", () => {
    const models = modelsFromEnv({ ...real, ADRANK_ALLOW_SIM: "false" });
    expect([...models.generators, models.embedder, models.voter].map((m) => m.provider)).toEqual(["openai", "openai", "openai", "openai"]);
    expect(models.warnings).toEqual([]);
  });

  it("refuses a value that is not a boolean", () => {
    for (const value of ["yes", "off", "False "]) expect(configError({ ...real, ADRANK_ALLOW_SIM: value })).toMatch(/^ {2}ADRANK_ALLOW_SIM: /m);
  });
});

describe("withFixedLatency", () => {
  it("waits the given time before every call", async () => {
    const slow = withFixedLatency(createSimGenerator(), 60);
    const started = performance.now();
    const result = await slow.generate({ system: "", user: "", images: [], simHints: { task: "rate", goal: "engagement", assetType: "Social Media Post", platform: null, copy: { adHeadline: "New menu", adBody: "Try the autumn menu at any of our cafes this week." }, demographics: {}, repetition: 0, generatorIndex: 0 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(result.simulated).toBe(true);
  });
});

describe("parseModelRef", () => {
  it("splits on the first colon only, keeping Ollama tags", () => {
    expect(parseModelRef("openai:llava:13b")).toEqual({ ok: true, ref: { provider: "openai", model: "llava:13b" } });
    expect(parseModelRef(" Gemini : gemini-2.5-flash ")).toEqual({ ok: true, ref: { provider: "gemini", model: "gemini-2.5-flash" } });
    expect(parseModelRef("openai:")).toMatchObject({ ok: false });
    expect(parseModelRef("gpt-4o")).toMatchObject({ ok: false });
  });
});
