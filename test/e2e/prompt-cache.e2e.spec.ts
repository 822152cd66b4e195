import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, rank } from "../support/http.ts";
import { responseValidator } from "../support/openapi-validator.ts";
import { missingServices, REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, withSearchPath, type Stack } from "../support/stack.ts";
// The strict fakes keep each provider's documented prompt-cache accounting
// (packages/models/test/support/strict/prompt-cache-book.ts, sources cited there): they know
// how many image tokens every prompt carried and how many they served from their cache.
import { startStrictAnthropic } from "../../packages/models/test/support/strict/anthropic.ts";
import { startStrictOpenAI } from "../../packages/models/test/support/strict/openai.ts";
import { cacheShares, type PromptCacheBook } from "../../packages/models/test/support/strict/prompt-cache-book.ts";
import type { ModelCall, StrictFake } from "../../packages/models/test/support/strict/strict-fake.ts";

// A 20-asset rank with copy through the running stack (gateway, ledger, scorer as processes),
// the scorer's generators answering from a strict fake of a provider that caches prompts. The
// cached share of the image tokens is what the fake says it served from its cache, and the
// ledger must have recorded, for the request, exactly the cached tokens the provider reported.

const missing = missingServices(["gateway", "ledger", "scorer"]);
const MODEL_USAGE_CLI = join(REPO_ROOT, "services/ledger/src/admin/model-usage-cli.ts");
const ASSETS = 20;
// Ad sizes as they come (square, portrait feed, link card, story); the gateway normalizes them.
const SIZES: Array<[number, number]> = [
  [1080, 1080],
  [1080, 1350],
  [1200, 628],
  [1080, 1920],
];

const respond = (call: ModelCall): string =>
  call.images === 2 ? "The first.\nWINNER: 1" : "I would probably stop and look at this one.\nRATIONALE: The clear offer.\nPRODUCT: Trail shoes.";

interface SettledUsage {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** One request's model usage as the ledger mirror recorded it (the operator's `model-usage --request`). */
async function settledUsage(stack: Stack, requestId: string): Promise<SettledUsage[]> {
  const env = { ...process.env, DATABASE_URL: withSearchPath(stack.database.connectionString, stack.database.schema), ADRANK_NAMESPACE: stack.namespace, ADRANK_MODEL_PRICES_FILE: "" };
  for (let attempt = 0; attempt < 50; attempt++) {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [MODEL_USAGE_CLI, "--request", requestId, "--json"], { env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`model-usage exited ${code}: ${stderr}`))));
    });
    const report = JSON.parse(out) as { settlements: Array<{ modelUsage: SettledUsage[] }> };
    // The mirror is written by the ledger's projection, just after the settlement is answered.
    if (report.settlements.length > 0) return report.settlements.flatMap((s) => s.modelUsage);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`request ${requestId} was never settled in the mirror`);
}

const providers = [
  {
    name: "Anthropic (cache_control breakpoints): claude-sonnet-4-6 and claude-sonnet-5",
    generators: ["anthropic:claude-sonnet-4-6", "anthropic:claude-sonnet-5"],
    start: () => startStrictAnthropic({ apiKey: "sk-ant-cache-0123", respond, answerDelayMs: 40 }),
    env: (url: string) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "sk-ant-cache-0123" }),
    reportsWrites: true,
  },
  {
    name: "OpenAI (automatic prefix caching): gpt-4.1-mini and gpt-4.1",
    generators: ["openai:gpt-4.1-mini", "openai:gpt-4.1"],
    start: () => startStrictOpenAI({ apiKey: "sk-cache-openai-0123", respond, answerDelayMs: 40 }),
    env: () => ({}),
    reportsWrites: false,
  },
] as const;

describe.skipIf(missing.length > 0)("a 20-asset rank with copy reads most of its image tokens from the provider's prompt cache, and the ledger records the cached tokens", () => {
  let stack: Stack;
  let embedder: StrictFake & { promptCache: PromptCacheBook };
  let validator: ReturnType<typeof responseValidator>;
  const assets = Array.from({ length: ASSETS }, (_, i) => {
    const [w, h] = SIZES[i % SIZES.length]!;
    return {
      url: creative(i + 3, w, h),
      id: `offer-${i + 1}`,
      copy_context: { headline: `Run further, offer ${i + 1}`, body: "Light shoes for long trails, with grip that holds on wet rock." },
    };
  });

  beforeAll(async () => {
    // The embedder (OpenAI's, on its own fake) is needed by every scorer; the generators vary.
    embedder = await startStrictOpenAI({ apiKey: "sk-cache-openai-0123", respond });
    stack = await startStack({ scorerEnv: false, voterEnv: false, refinementEnv: false, gatewayEnv: { RANK_TIMEOUT_MS: "90000" } });
    const doc = await call(stack.baseUrl, "GET", "/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    validator = responseValidator(doc.body);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await embedder?.close();
  }, 60_000);

  for (const provider of providers) {
    it(provider.name, async () => {
      const fake = provider.name.startsWith("OpenAI") ? embedder : await provider.start();
      const before = fake.promptCache.accounts.length;
      const scorer = await stack.startReplica("scorer", {
        OPENAI_BASE_URL: embedder.url,
        OPENAI_API_KEY: "sk-cache-openai-0123",
        ...provider.env(fake.url),
        ADRANK_GENERATORS: provider.generators.join(","),
        ADRANK_EMBEDDER: "openai:text-embedding-3-small",
        // Read by every worker's model configuration, though the scorer casts no votes.
        ADRANK_VOTER: provider.generators[0],
        ADRANK_ALLOW_SIM: "false",
        MODEL_MAX_RETRIES: "0",
      });
      try {
        const account = await stack.createAccount({ credits: 100 });
        const res = await rank(stack.baseUrl, account.key, { assets, audience: { name: "Trail runners", demographics: { ageRange: "25-34" } }, goal: "purchase-intent", refine_close_pairs: false });
        expect(res.status, JSON.stringify(res.body).slice(0, 600)).toBe(200);
        expect(validator.check("rankAssets", res.status, res.body)).toBeNull();
        const body = res.body as { request_id: string; ranked: unknown[]; summary: { scoring_evaluations: number; credits_used: number } };
        expect(body.ranked).toHaveLength(ASSETS);
        // With copy, every asset is evaluated twice (the full ad and its image-only ablation).
        expect(body.summary.scoring_evaluations).toBe(ASSETS * 2);

        const generated = fake.promptCache.accounts.slice(before).filter((a) => (provider.generators as readonly string[]).some((g) => g.endsWith(`:${a.model}`)));
        const shares = cacheShares(generated);
        console.log(
          `${provider.name}: ${shares.calls} calls, ${(100 * shares.imageShare).toFixed(1)} % of ${shares.imageTokens} image tokens and ${(100 * shares.inputShare).toFixed(1)} % of ${shares.promptTokens} input tokens from cache, ${shares.writtenTokens} written`,
        );
        expect(shares.calls).toBe(ASSETS * 2 * 6);
        expect(shares.imageShare).toBeGreaterThanOrEqual(0.6);
        expect(fake.refusals).toEqual([]);

        // What the provider reported is what the ledger recorded for the request, model by model.
        const usage = await settledUsage(stack, body.request_id);
        for (const model of provider.generators) {
          const byFake = generated.filter((a) => model.endsWith(`:${a.model}`));
          const recorded = usage.find((u) => u.model === model);
          expect(recorded, `${model} in ${JSON.stringify(usage)}`).toBeDefined();
          expect(recorded!.calls).toBe(byFake.length);
          expect(recorded!.inputTokens).toBe(byFake.reduce((n, a) => n + a.promptTokens, 0));
          expect(recorded!.cachedInputTokens ?? 0).toBe(byFake.reduce((n, a) => n + a.cachedTokens, 0));
          // Only breakpoint providers (Anthropic, Bedrock) report and bill cache writes; OpenAI's are free and unreported.
          expect(recorded!.cacheWriteInputTokens ?? 0).toBe(provider.reportsWrites ? byFake.reduce((n, a) => n + a.writtenTokens, 0) : 0);
          expect(recorded!.cachedInputTokens ?? 0).toBeGreaterThan(0);
        }
      } finally {
        await scorer.process.stop();
        if (fake !== embedder) await fake.close();
      }
    }, 180_000);
  }
});
