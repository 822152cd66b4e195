import { describe, expect, it } from "vitest";
import { configError } from "./support/config-error.ts";
import { isModelError, ModelsEnv, modelsFromEnv, parseModelRef, SIM_ONLY_WARNING, withFixedLatency, createSimGenerator, type ModelRef } from "../src/index.ts";


describe("modelsFromEnv", () => {
  it("runs entirely on two distinct sim generators, the sim embedder and the sim voter when nothing is configured, and says so", () => {
    const models = modelsFromEnv({});
    expect(models.generators.map((g) => `${g.provider}:${g.model}`)).toEqual(["sim:sim-gen-a", "sim:sim-gen-b"]);
    expect(`${models.embedder.provider}:${models.embedder.model}`).toBe("sim:sim-embed");
    expect(models.voters.map((v) => `${v.provider}:${v.model}`)).toEqual(["sim:sim-voter"]);
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
    expect(models.voters.map((v) => v.provider)).toEqual(["gemini"]);
    // Anthropic's API version has no temperature: the operator is told the seat's setting is not sent.
    expect(models.warnings).toEqual([
      "ADRANK_GENERATOR_TEMPERATURES seat 2 (1) is not sent to anthropic:claude-sonnet-4-6: that model takes only its default temperature (or reasoning/thinking is on), so its samples differ by chance alone.",
    ]);
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
    expect(modelsFromEnv({}).voters[0]!.provider).toBe("sim");
    expect(modelsFromEnv({ ADRANK_ALLOW_SIM: "" }).voters[0]!.provider).toBe("sim");
    expect(modelsFromEnv({ ADRANK_ALLOW_SIM: "true" }).voters[0]!.provider).toBe("sim");
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
    expect([...models.generators, models.embedder, ...models.voters].map((m) => m.provider)).toEqual(["openai", "openai", "openai", "openai"]);
    expect(models.warnings).toEqual([]);
  });

  it("refuses a value that is not a boolean", () => {
    for (const value of ["yes", "off", "False "]) expect(configError({ ...real, ADRANK_ALLOW_SIM: value })).toMatch(/^ {2}ADRANK_ALLOW_SIM: /m);
  });
});

describe("answer budget, reasoning and answer retries", () => {
  it("defaults to a 1024-token answer budget, 2 answer retries, no OpenAI reasoning effort, no Anthropic thinking and a Gemini thinking budget of 512", () => {
    const config = ModelsEnv.parse({});
    expect(config).toMatchObject({ MODEL_MAX_OUTPUT_TOKENS: 1024, MODEL_ANSWER_RETRIES: 2, OPENAI_REASONING_BUDGET: 8192, GEMINI_THINKING_BUDGET: 512 });
    expect(config.OPENAI_REASONING_EFFORT).toBeUndefined();
    expect(config.ANTHROPIC_THINKING_BUDGET).toBeUndefined();
  });

  it("reads empty values as unset", () => {
    const blank = { MODEL_MAX_OUTPUT_TOKENS: "", MODEL_ANSWER_RETRIES: "", OPENAI_REASONING_EFFORT: "", OPENAI_REASONING_BUDGET: "", ANTHROPIC_THINKING_BUDGET: " ", GEMINI_THINKING_BUDGET: "", ADRANK_GENERATOR_TEMPERATURES: "", ADRANK_VOTER_TEMPERATURE: "", ADRANK_VOTER: "", ADRANK_VOTERS: "" };
    expect(ModelsEnv.parse(blank)).toMatchObject({ ...ModelsEnv.parse({}) });
  });

  it("takes configured values", () => {
    const config = ModelsEnv.parse({ MODEL_MAX_OUTPUT_TOKENS: "2048", MODEL_ANSWER_RETRIES: "0", OPENAI_REASONING_EFFORT: "low", OPENAI_REASONING_BUDGET: "4000", ANTHROPIC_THINKING_BUDGET: "1024", GEMINI_THINKING_BUDGET: "0" });
    expect(config).toMatchObject({ MODEL_MAX_OUTPUT_TOKENS: 2048, MODEL_ANSWER_RETRIES: 0, OPENAI_REASONING_EFFORT: "low", OPENAI_REASONING_BUDGET: 4000, ANTHROPIC_THINKING_BUDGET: 1024, GEMINI_THINKING_BUDGET: 0 });
  });

  it("rejects bad values, naming the variable", () => {
    expect(configError({ MODEL_MAX_OUTPUT_TOKENS: "lots" })).toMatch(/^ {2}MODEL_MAX_OUTPUT_TOKENS: /m);
    expect(configError({ MODEL_MAX_OUTPUT_TOKENS: "8" })).toMatch(/^ {2}MODEL_MAX_OUTPUT_TOKENS: /m);
    expect(configError({ MODEL_ANSWER_RETRIES: "6" })).toMatch(/^ {2}MODEL_ANSWER_RETRIES: /m);
    expect(configError({ MODEL_ANSWER_RETRIES: "1.5" })).toMatch(/^ {2}MODEL_ANSWER_RETRIES: /m);
    expect(configError({ OPENAI_REASONING_EFFORT: "extreme" })).toMatch(/^ {2}OPENAI_REASONING_EFFORT: .*"low"/m);
    expect(configError({ OPENAI_REASONING_BUDGET: "0" })).toMatch(/^ {2}OPENAI_REASONING_BUDGET: /m);
    expect(configError({ ANTHROPIC_THINKING_BUDGET: "512" })).toMatch(/^ {2}ANTHROPIC_THINKING_BUDGET: must be at least 1024, Anthropic's smallest thinking budget/m);
    expect(configError({ ANTHROPIC_THINKING_BUDGET: "some" })).toMatch(/^ {2}ANTHROPIC_THINKING_BUDGET: /m);
    expect(configError({ GEMINI_THINKING_BUDGET: "-2" })).toMatch(/^ {2}GEMINI_THINKING_BUDGET: /m);
    // -1 asks for dynamic thinking, which Gemini 2.5 offers.
    expect(ModelsEnv.parse({ GEMINI_THINKING_BUDGET: "-1" }).GEMINI_THINKING_BUDGET).toBe(-1);
  });

  it("gives generators no temperature where reasoning or thinking is on, as those models reject one", () => {
    const keys = { OPENAI_API_KEY: "sk-x", ANTHROPIC_API_KEY: "sk-ant-x", GEMINI_API_KEY: "AIza-x" };
    const reasoning = modelsFromEnv({ ...keys, ADRANK_GENERATORS: "openai:o4-mini,anthropic:claude-sonnet-4-6", ADRANK_VOTER: "gemini:gemini-2.5-pro", OPENAI_REASONING_EFFORT: "low", ANTHROPIC_THINKING_BUDGET: "2048" });
    expect(reasoning.generators.map((g) => g.temperature)).toEqual([null, null]);
    // Gemini thinks and still takes a temperature.
    expect(reasoning.voters.map((v) => v.temperature)).toEqual([1]);
  });
});

describe("temperatures", () => {
  const keys = { OPENAI_API_KEY: "sk-x", ANTHROPIC_API_KEY: "sk-ant-x", GEMINI_API_KEY: "AIza-x" };
  const real = { ...keys, ADRANK_GENERATORS: "openai:gpt-4o-mini,gemini:gemini-2.5-flash", ADRANK_VOTERS: "openai:gpt-4o,anthropic:claude-sonnet-4-6" };

  it("defaults to 0.5 and 1.0 for the two generator seats and 1.0 for every voter", () => {
    const config = ModelsEnv.parse({});
    expect(config.ADRANK_GENERATOR_TEMPERATURES).toEqual([0.5, 1]);
    expect(config.ADRANK_VOTER_TEMPERATURE).toBe(1);
    const models = modelsFromEnv(real);
    expect(models.generators.map((g) => g.temperature)).toEqual([0.5, 1]);
    // Claude takes no temperature under the Messages API version the SDK speaks.
    expect(models.voters.map((v) => v.temperature)).toEqual([1, null]);
  });

  it("gives each seat its configured temperature, 0 and 2 included", () => {
    const models = modelsFromEnv({ ...real, ADRANK_GENERATOR_TEMPERATURES: "0, 2", ADRANK_VOTER_TEMPERATURE: "0.3" });
    expect(models.generators.map((g) => g.temperature)).toEqual([0, 2]);
    expect(models.voters.map((v) => v.temperature)).toEqual([0.3, null]);
  });

  it("rejects temperatures outside 0 to 2, and anything but two numbers for the generators", () => {
    for (const value of ["0.5,2.5", "-0.1,1", "0.5", "0.5,1,1.5", "a,b", "0.5,"]) {
      expect(configError({ ADRANK_GENERATOR_TEMPERATURES: value })).toMatch(/^ {2}ADRANK_GENERATOR_TEMPERATURES: must be two temperatures, one per generator seat, each a number from 0 to 2/m);
    }
    for (const value of ["2.1", "-1", "warm"]) expect(configError({ ADRANK_VOTER_TEMPERATURE: value })).toMatch(/^ {2}ADRANK_VOTER_TEMPERATURE: must be a number from 0 to 2/m);
  });

  it("sends a model that takes only its default temperature none, and says so at start instead of refusing the configuration", () => {
    const models = modelsFromEnv({ ...keys, ADRANK_GENERATORS: "openai:gpt-5-mini,anthropic:claude-sonnet-4-6", ADRANK_EMBEDDER: "openai:text-embedding-3-small", ADRANK_GENERATOR_TEMPERATURES: "1.5,1.2", ADRANK_VOTERS: "openai:o4-mini,gemini:gemini-2.5-flash" });
    expect(models.generators.map((g) => g.temperature)).toEqual([null, null]);
    expect(models.voters.map((v) => v.temperature)).toEqual([null, 1]);
    expect(models.warnings).toEqual([
      expect.stringMatching(/^ADRANK_GENERATOR_TEMPERATURES seat 1 \(1\.5\) is not sent to openai:gpt-5-mini/),
      expect.stringMatching(/^ADRANK_GENERATOR_TEMPERATURES seat 2 \(1\.2\) is not sent to anthropic:claude-sonnet-4-6/),
      "ADRANK_VOTER_TEMPERATURE (1) is not sent to openai:o4-mini: those models take only their default temperature.",
    ]);
  });
});

describe("mixed panel (ADRANK_VOTERS)", () => {
  const keys = { OPENAI_API_KEY: "sk-x", ANTHROPIC_API_KEY: "sk-ant-x", GEMINI_API_KEY: "AIza-x" };
  const refs = (models: { voters: Array<{ provider: string; model: string }> }) => models.voters.map((v) => `${v.provider}:${v.model}`);

  it("builds one voter per listed model, in order", () => {
    const models = modelsFromEnv({ ...keys, ADRANK_VOTERS: "openai:gpt-4o, anthropic:claude-sonnet-4-6 ,gemini:gemini-2.5-flash,openai:llava:13b" });
    expect(refs(models)).toEqual(["openai:gpt-4o", "anthropic:claude-sonnet-4-6", "gemini:gemini-2.5-flash", "openai:llava:13b"]);
    expect(ModelsEnv.parse({ ...keys, ADRANK_VOTERS: "openai:gpt-4o,gemini:gemini-2.5-flash" }).voters).toEqual<ModelRef[]>([
      { provider: "openai", model: "gpt-4o" },
      { provider: "gemini", model: "gemini-2.5-flash" },
    ]);
  });

  it("falls back to ADRANK_VOTER, then to the sim voter", () => {
    expect(refs(modelsFromEnv({ ...keys, ADRANK_VOTER: "gemini:gemini-2.5-flash" }))).toEqual(["gemini:gemini-2.5-flash"]);
    expect(refs(modelsFromEnv({}))).toEqual(["sim:sim-voter"]);
  });

  it("takes one to five voters and rejects six or none", () => {
    expect(refs(modelsFromEnv({ ADRANK_VOTERS: "sim:v1" }))).toEqual(["sim:v1"]);
    expect(modelsFromEnv({ ADRANK_VOTERS: "sim:v1,sim:v2,sim:v3,sim:v4,sim:v5" }).voters).toHaveLength(5);
    expect(configError({ ADRANK_VOTERS: "sim:v1,sim:v2,sim:v3,sim:v4,sim:v5,sim:v6" })).toMatch(/^ {2}ADRANK_VOTERS: must name 1 to 5 voters as "provider:model,provider:model", got 6$/m);
    expect(configError({ ADRANK_VOTERS: " , " })).toMatch(/^ {2}ADRANK_VOTERS: must name 1 to 5 voters .*got 0$/m);
    expect(configError({ ADRANK_VOTERS: "sim:v1,mistral:large" })).toMatch(/^ {2}ADRANK_VOTERS: unknown provider "mistral"/m);
  });

  it("refuses ADRANK_VOTER and ADRANK_VOTERS set together, in one clear line", () => {
    const message = configError({ ADRANK_VOTER: "sim:sim-voter", ADRANK_VOTERS: "sim:v1,sim:v2" });
    expect(message.split("\n")).toEqual([
      "invalid configuration:",
      "  ADRANK_VOTERS: cannot be set together with ADRANK_VOTER: name every panel model in ADRANK_VOTERS and leave ADRANK_VOTER empty (it is the one-model form)",
    ]);
  });

  it("checks the key of every voter's provider, naming ADRANK_VOTERS", () => {
    expect(configError({ ADRANK_VOTERS: "sim:v1,anthropic:claude-sonnet-4-6" })).toMatch(/ANTHROPIC_API_KEY: required because ADRANK_VOTERS uses provider anthropic/);
    expect(configError({ ADRANK_VOTERS: "gemini:gemini-2.5-flash", ANTHROPIC_API_KEY: "k" })).toMatch(/GEMINI_API_KEY: required because ADRANK_VOTERS uses provider gemini/);
  });

  it("applies ADRANK_ALLOW_SIM to every voter and names ADRANK_VOTERS", () => {
    const real = { ADRANK_GENERATORS: "openai:gpt-4o-mini,openai:gpt-4o", ADRANK_EMBEDDER: "openai:text-embedding-3-small", OPENAI_API_KEY: "sk-x", ADRANK_ALLOW_SIM: "false" };
    expect(configError({ ...real, ADRANK_VOTERS: "openai:gpt-4o,sim:sim-voter" })).toMatch(/^ {2}ADRANK_ALLOW_SIM: is false but ADRANK_VOTERS uses the offline simulated model \(sim\)/m);
    expect(refs(modelsFromEnv({ ...real, ADRANK_VOTERS: "openai:gpt-4o,openai:gpt-4o-mini" }))).toEqual(["openai:gpt-4o", "openai:gpt-4o-mini"]);
  });

  it("warns about sim voters under the variable that named them", () => {
    const models = modelsFromEnv({ ADRANK_GENERATORS: "openai:gpt-4o-mini,openai:gpt-4o", ADRANK_EMBEDDER: "openai:text-embedding-3-small", OPENAI_API_KEY: "sk-x", ADRANK_VOTERS: "openai:gpt-4o,sim:sim-voter" });
    expect(models.warnings).toEqual(["ADRANK_VOTERS use the offline simulated model (sim): those answers are computed from image statistics, not written by a language model."]);
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
