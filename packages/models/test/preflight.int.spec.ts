import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { checkModels, createModelsReadiness, formatCheckTable, modelsFromEnv, runStartupModelCheck } from "../src/index.ts";
import { startStrictAnthropic } from "./support/strict/anthropic.ts";
import { startStrictGemini } from "./support/strict/gemini.ts";
import { startStrictOpenAI } from "./support/strict/openai.ts";
import type { ModelCall, StrictFake } from "./support/strict/strict-fake.ts";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../src/preflight/models-cli.ts", import.meta.url));
const KEYS = { openai: "sk-pre-0123456789", anthropic: "sk-ant-pre-0123", gemini: "AIza-pre-0123" };
const respond = (call: ModelCall) => (call.images === 2 ? "Image 1 is bolder.\nWINNER: 1" : "Red, green and two darker blocks.");

describe("the preflight check: one minimal real call per configured model", () => {
  let fakes: StrictFake[] = [];
  afterEach(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    fakes = [];
  });
  const start = async () => {
    const [openai, anthropic, gemini] = await Promise.all([
      startStrictOpenAI({ apiKey: KEYS.openai, respond }),
      startStrictAnthropic({ apiKey: KEYS.anthropic, respond }),
      startStrictGemini({ apiKey: KEYS.gemini, respond }),
    ]);
    fakes = [openai, anthropic, gemini];
    return {
      openai,
      anthropic,
      gemini,
      env: {
        ADRANK_GENERATORS: "openai:gpt-5-mini,anthropic:claude-opus-4-7",
        ADRANK_EMBEDDER: "gemini:gemini-embedding-001",
        ADRANK_VOTERS: "gemini:gemini-2.5-flash,openai:gpt-4.1",
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: KEYS.openai,
        ANTHROPIC_BASE_URL: anthropic.url,
        ANTHROPIC_API_KEY: KEYS.anthropic,
        GEMINI_BASE_URL: gemini.url,
        GEMINI_API_KEY: KEYS.gemini,
        MODEL_MAX_RETRIES: "0",
      },
    };
  };
  const cli = async (env: Record<string, string>, ...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 30_000 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it("passes a good configuration: every role's model answers once, with its latency and tokens, and the provider accepted every request", async () => {
    const { env, openai, anthropic, gemini } = await start();
    const rows = await checkModels(modelsFromEnv(env));
    expect(rows.map((r) => [r.role, r.model, r.ok])).toEqual([
      ["generator", "openai:gpt-5-mini", true],
      ["generator", "anthropic:claude-opus-4-7", true],
      ["embedder", "gemini:gemini-embedding-001", true],
      ["voter", "gemini:gemini-2.5-flash", true],
      ["voter", "openai:gpt-4.1", true],
    ]);
    for (const r of rows.filter((r) => r.role !== "embedder")) expect(r.inputTokens).toBeGreaterThan(0);
    // The check sends real images: a voter gets two.
    expect(gemini.requests.some((r) => JSON.stringify(r.body).split("inlineData").length === 3)).toBe(true);
    expect([...openai.refusals, ...anthropic.refusals, ...gemini.refusals]).toEqual([]);
    expect(formatCheckTable(rows)).toMatch(/all 5 model checks passed$/);
  });

  it("prints the table and exits 0 for a good configuration, 1 with the setting to fix for a broken one", async () => {
    const { env } = await start();
    const good = await cli(env, "check");
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^role\s+model\s+result\s+latency\s+tokens in\/out$/m);
    expect(good.stdout).toMatch(/^generator\s+openai:gpt-5-mini\s+ok\s+\d+ ms\s+\d+\/\d+$/m);
    expect(good.stdout).toMatch(/all 5 model checks passed/);

    const broken = await cli({ ...env, ANTHROPIC_API_KEY: "sk-ant-wrong", ADRANK_VOTERS: "gemini:gemini-9-ultra,openai:gpt-4.1" }, "check");
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^generator\s+anthropic:claude-opus-4-7\s+FAILED \(misconfigured\)/m);
    expect(broken.stdout).toMatch(/fix: {3}anthropic refused the credentials for model claude-opus-4-7 \(HTTP 401.*\): check ANTHROPIC_API_KEY/);
    expect(broken.stdout).toMatch(/^voter\s+gemini:gemini-9-ultra\s+FAILED \(misconfigured\)/m);
    expect(broken.stdout).toMatch(/fix: {3}gemini does not serve model gemini-9-ultra \(HTTP 404.*\): correct the model name in ADRANK_VOTERS/);
    // The unknown model is named at start too.
    expect(broken.stdout).toMatch(/warning: ADRANK_VOTERS names gemini:gemini-9-ultra, a model the capability table does not know/);
    expect(broken.stdout).toMatch(/2 of 5 model checks failed/);
    expect(broken.stdout + broken.stderr).not.toContain("sk-ant-wrong");
    console.log(`preflight, good configuration:\n${good.stdout}\npreflight, broken configuration:\n${broken.stdout}`);

    const json = await cli(env, "check", "--json", "--role", "embedder");
    expect(JSON.parse(json.stdout).checks).toEqual([expect.objectContaining({ role: "embedder", model: "gemini:gemini-embedding-001", ok: true })]);
  }, 60_000);

  it("exits 2 with the variable's line on a configuration error, and refuses unknown arguments", async () => {
    const bad = await cli({ ADRANK_GENERATORS: "openai:gpt-4.1" }, "check");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/ADRANK_GENERATORS: must name exactly two generators/);
    expect((await cli({}, "verify")).code).toBe(2);
    expect((await cli({}, "check", "--role", "judges")).stderr).toMatch(/--role must be generators, embedder or voters/);
    // Three processes of about a second each when idle: the 5 s default is too tight while CI runs other workspaces' tests.
  }, 30_000);

  it("prints the capability table that docs/models.md holds", async () => {
    const table = await cli({}, "table");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^\| provider \| family \| roles \|/);
    expect(table.stdout).toContain("| anthropic |");
  });

  it("keeps a service not ready while its start-up check fails, naming the fix, and ready once the provider answers", async () => {
    const { env } = await start();
    let refuse = true;
    // The provider is down at first (503), then recovers.
    const flaky = await startStrictOpenAI({ apiKey: KEYS.openai, respond, reply: () => (refuse ? { status: 503, body: { error: { message: "overloaded", type: "server_error", param: null, code: null } } } : undefined) });
    fakes.push(flaky);
    const flakyModels = modelsFromEnv({ ...env, ADRANK_GENERATORS: "openai:gpt-4.1,openai:gpt-4o", OPENAI_BASE_URL: flaky.url });
    const readiness = createModelsReadiness({ checkRequired: true });
    expect(readiness.notReadyReason()).toBe("the start-up model check has not finished");
    const logged: string[] = [];
    const stop = runStartupModelCheck({ generators: flakyModels.generators }, readiness, { info: (_o, m) => logged.push(m), error: (_o, m) => logged.push(m) }, { retryMs: 200, timeoutMs: 5_000 });
    try {
      await expect.poll(() => readiness.notReadyReason(), { timeout: 5_000 }).toMatch(/^the model check failed for generator openai:gpt-4\.1/);
      refuse = false;
      await expect.poll(() => readiness.notReadyReason(), { timeout: 5_000 }).toBeNull();
      expect(logged.some((m) => m.startsWith("model check failed; not ready until it passes"))).toBe(true);
      expect(logged.at(-1)).toBe("model check passed: every configured model answered");
    } finally {
      stop();
    }
  }, 20_000);

  it("turns not ready when a model's call fails on a misconfiguration, and ready again after a call succeeds", async () => {
    const { env } = await start();
    let wrong = true;
    const fake = await startStrictOpenAI({ apiKey: KEYS.openai, respond, reply: () => (wrong ? { status: 404, body: { error: { message: "The model does not exist", type: "invalid_request_error", param: null, code: "model_not_found" } } } : undefined) });
    fakes.push(fake);
    const models = modelsFromEnv({ ...env, OPENAI_BASE_URL: fake.url, ADRANK_GENERATORS: "openai:gpt-4.1,openai:gpt-4o" });
    const told: string[] = [];
    const readiness = createModelsReadiness({ checkRequired: false, onMisconfigured: (model, fix) => told.push(`${model}: ${fix}`) });
    const generator = readiness.watchGenerator(models.generators[0]);
    expect(readiness.notReadyReason()).toBeNull();
    await expect(generator.generate({ system: "s", user: "u", images: [] })).rejects.toMatchObject({ kind: "misconfigured" });
    expect(readiness.notReadyReason()).toMatch(/^model openai:gpt-4\.1 is misconfigured: openai does not serve model gpt-4\.1 \(HTTP 404, model_not_found\): correct the model name in ADRANK_GENERATORS/);
    expect(told).toHaveLength(1);
    wrong = false;
    await generator.generate({ system: "s", user: "u", images: [] });
    expect(readiness.notReadyReason()).toBeNull();
  });
});
