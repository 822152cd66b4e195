import { describe, expect, it } from "vitest";
import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { createAnthropicGenerator, createBedrockGenerator, createCallPolicy, createGeminiGenerator, createOpenAICompatibleGenerator, createSimEmbedder, type Generator } from "@adrank/models";
import { anchorSets } from "@adrank/ssr";
import type { ScoreJob } from "@adrank/bus-contracts";
import type { ScoreLayer } from "@adrank/contracts";
import { prepareImage } from "../../../packages/images/src/prepare-image.ts";
import { startStrictAnthropic } from "../../../packages/models/test/support/strict/anthropic.ts";
import { startStrictBedrock } from "../../../packages/models/test/support/strict/bedrock.ts";
import { startStrictGemini } from "../../../packages/models/test/support/strict/gemini.ts";
import { startStrictOpenAI } from "../../../packages/models/test/support/strict/openai.ts";
import { cacheShares, type PromptCacheBook } from "../../../packages/models/test/support/strict/prompt-cache-book.ts";
import type { StrictFake } from "../../../packages/models/test/support/strict/strict-fake.ts";
import { createAnchorEmbeddings } from "../src/anchor-embeddings.ts";
import { evaluate, promptCacheWarmup, type EvaluationDeps } from "../src/evaluate.ts";
import { createPrefixWarmups } from "../src/warm-first.ts";

/**
 * The cached share of input tokens for a 20-asset rank with copy, against the strict fakes of
 * the providers that cache prompts. Each fake keeps its provider's documented cache accounting
 * (packages/models/test/support/strict/prompt-cache-book.ts): it knows how many image tokens
 * every prompt carried and how many it served from its cache, entries readable only once the
 * call that wrote them has been answered. The rank runs as the gateway and scorer run it: 20
 * assets, 4 in flight (the gateway's ASSET_CONCURRENCY), both layers of an asset (full ad
 * package and image-only) at once, each an evaluation of 6 samples; one call policy per
 * provider with the default MODEL_CONCURRENCY of 8.
 */

const ASSETS = 20;
const ASSET_CONCURRENCY = 4;
/** How long each fake takes to answer: long enough that calls in flight together overlap. */
const ANSWER_MS = 60;
// Source sizes ads come in (square, portrait feed, link card, story), normalized as the gateway does.
const SOURCE_SIZES: Array<[number, number]> = [
  [1080, 1080],
  [1080, 1350],
  [1200, 628],
  [1080, 1920],
];

async function creative(i: number): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const [w, h] = SOURCE_SIZES[i % SOURCE_SIZES.length]!;
  const hue = (i * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <rect width="100%" height="100%" fill="hsl(${hue},70%,92%)"/>
    <circle cx="${w * 0.35}" cy="${h * 0.4}" r="${Math.min(w, h) * 0.22}" fill="hsl(${(hue + 180) % 360},80%,45%)"/>
    <rect x="${w * 0.1}" y="${h * 0.78}" width="${w * 0.8}" height="${h * 0.1}" rx="12" fill="hsl(${(hue + 90) % 360},85%,40%)"/>
    <text x="${w * 0.12}" y="${h * 0.86}" font-size="${Math.round(h * 0.05)}" fill="#fff">Offer ${i + 1}</text>
  </svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const prepared = await prepareImage(png, "png", 40_000_000);
  if (!prepared.ok) throw new Error(`creative ${i} could not be prepared`);
  return { bytes: prepared.image.bytes, width: prepared.image.width, height: prepared.image.height };
}

const persona = {
  audience: { name: "Trail runners", description: "Runners in their thirties comparing shoes before race season; they read reviews and care about grip and weight.", demographics: { ageRange: "30-39", priceSensitivity: "medium" } },
  goal: "purchase-intent" as const,
  assetType: "Social Media Post",
  platform: "instagram",
  campaignType: null,
};

interface RankFigures {
  shares: ReturnType<typeof cacheShares>;
  ms: number;
  /** Mean time of one evaluation, from its start to its aggregate. */
  evaluationMs: number;
}

/** One rank: 20 assets with copy, 4 in flight, both layers of each at once. */
async function rank(generators: [Generator, Generator], warmUpOn: boolean, book: PromptCacheBook, assets: Awaited<ReturnType<typeof creative>>[]): Promise<RankFigures> {
  const embedder = createSimEmbedder();
  const deps: EvaluationDeps = {
    generators,
    embedder,
    anchors: createAnchorEmbeddings(embedder, anchorSets),
    loadImage: async (ref) => assets.find((a) => createHash("sha256").update(a.bytes).digest("hex") === ref)?.bytes ?? null,
    warmUp: promptCacheWarmup(generators, warmUpOn),
    prefixWarmups: createPrefixWarmups(),
  };
  const before = book.accounts.length;
  const started = performance.now();
  let next = 0;
  const durations: number[] = [];
  const worker = async () => {
    while (next < assets.length) {
      const i = next++;
      const asset = assets[i]!;
      const ref = createHash("sha256").update(asset.bytes).digest("hex");
      const job = (layer: ScoreLayer): ScoreJob => ({
        requestId: randomUUID(),
        jobId: `j-${i}-${layer}`,
        deadline: Date.now() + 60_000,
        layer,
        image: { ref, mime: "image/jpeg", width: asset.width, height: asset.height },
        copy: { adHeadline: `Run further, offer ${i + 1}`, adBody: "Light shoes for long trails, with grip that holds on wet rock.", adDescription: "Free returns for 60 days." },
        persona,
      });
      await Promise.all(
        (["full-ad-package", "image-only"] as const).map(async (layer) => {
          const t = performance.now();
          await evaluate(job(layer), deps, AbortSignal.timeout(60_000));
          durations.push(performance.now() - t);
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: ASSET_CONCURRENCY }, worker));
  return { shares: cacheShares(book.accounts.slice(before)), ms: performance.now() - started, evaluationMs: durations.reduce((a, b) => a + b, 0) / durations.length };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function report(provider: string, models: string, on: RankFigures, off: RankFigures): void {
  const line = (label: string, f: RankFigures) =>
    `  warm-up ${label}: ${pct(f.shares.imageShare)} of image tokens and ${pct(f.shares.inputShare)} of all input tokens from cache (${f.shares.cachedTokens}/${f.shares.promptTokens}), ${f.shares.writtenTokens} written; ${f.shares.calls} calls; rank ${Math.round(f.ms)} ms, ${Math.round(f.evaluationMs)} ms per evaluation`;
  console.log(`${provider} (${models}), 20-asset rank with copy, ${ANSWER_MS} ms per call:\n${line("on ", on)}\n${line("off", off)}`);
}

/** Two ranks against one fake, warm-up off then on, each with a fresh cache (a new key: caches never cross accounts). */
async function measure(start: (key: string) => Promise<StrictFake & { promptCache: PromptCacheBook }>, build: (fake: StrictFake, key: string) => [Generator, Generator]) {
  const assets = await Promise.all(Array.from({ length: ASSETS }, (_, i) => creative(i)));
  const figures: Record<"on" | "off", RankFigures> = {} as never;
  for (const mode of ["off", "on"] as const) {
    const key = `key-${mode}-${randomUUID()}`;
    const fake = await start(key);
    try {
      const generators = build(fake, key);
      figures[mode] = await rank(generators, mode === "on", fake.promptCache, assets);
      expect(fake.refusals).toEqual([]);
    } finally {
      await fake.close();
    }
  }
  return { ...figures, assets };
}

describe("the cached share of image input tokens in a 20-asset rank with copy", () => {
  it("OpenAI: at least 60 % of image tokens from cache with warm-up, far less without", async () => {
    const policy = createCallPolicy({ concurrency: 8 });
    const { on, off } = await measure(
      (key) => startStrictOpenAI({ apiKey: key, answerDelayMs: ANSWER_MS }),
      (fake, key) => [
        createOpenAICompatibleGenerator({ model: "gpt-4.1-mini", apiKey: key, baseURL: fake.url, flavor: "openai", policy, temperature: 0.5 }),
        createOpenAICompatibleGenerator({ model: "gpt-4.1", apiKey: key, baseURL: fake.url, flavor: "openai", policy, temperature: 1 }),
      ],
    );
    report("OpenAI", "gpt-4.1-mini + gpt-4.1", on, off);
    expect(on.shares.calls).toBe(ASSETS * 2 * 6);
    expect(on.shares.imageShare).toBeGreaterThanOrEqual(0.6);
    expect(off.shares.imageShare).toBeLessThan(on.shares.imageShare - 0.2);
  }, 120_000);

  it("Anthropic: at least 60 % of image tokens from cache with warm-up, far less without", async () => {
    const policy = createCallPolicy({ concurrency: 8 });
    const { on, off } = await measure(
      (key) => startStrictAnthropic({ apiKey: key, answerDelayMs: ANSWER_MS }),
      (fake, key) => [
        createAnthropicGenerator({ model: "claude-sonnet-4-6", apiKey: key, baseURL: fake.url, policy }),
        createAnthropicGenerator({ model: "claude-sonnet-5", apiKey: key, baseURL: fake.url, policy }),
      ],
    );
    report("Anthropic", "claude-sonnet-4-6 + claude-sonnet-5", on, off);
    expect(on.shares.calls).toBe(ASSETS * 2 * 6);
    expect(on.shares.imageShare).toBeGreaterThanOrEqual(0.6);
    expect(off.shares.imageShare).toBeLessThan(on.shares.imageShare - 0.2);
  }, 120_000);

  it("Bedrock (Claude with a cachePoint): at least 60 % of image tokens from cache with warm-up, far less without", async () => {
    const policy = createCallPolicy({ concurrency: 8 });
    const secret = "bedrock-secret-key-0123456789";
    const { on, off } = await measure(
      (key) => startStrictBedrock({ accessKeyId: key, secretAccessKey: secret, region: "eu-central-1", answerDelayMs: ANSWER_MS }),
      (fake, key) => {
        const connection = { region: "eu-central-1", credentials: { accessKeyId: key, secretAccessKey: secret }, endpoint: fake.url, policy };
        return [
          createBedrockGenerator({ ...connection, model: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0", temperature: 0.5 }),
          createBedrockGenerator({ ...connection, model: "global.anthropic.claude-sonnet-4-6", temperature: 1 }),
        ];
      },
    );
    report("Bedrock", "Claude Sonnet 4.5 + 4.6", on, off);
    expect(on.shares.calls).toBe(ASSETS * 2 * 6);
    expect(on.shares.imageShare).toBeGreaterThanOrEqual(0.6);
    expect(off.shares.imageShare).toBeLessThan(on.shares.imageShare - 0.2);
  }, 120_000);

  it("Gemini: nothing is cached, because every prompt is below the 2,048-token implicit-caching minimum, so no call is held back", async () => {
    const policy = createCallPolicy({ concurrency: 8 });
    let generators: [Generator, Generator] | undefined;
    const { on, off } = await measure(
      (key) => startStrictGemini({ apiKey: key, answerDelayMs: ANSWER_MS }),
      (fake, key) =>
        (generators = [
          createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: key, baseURL: fake.url, policy, temperature: 0.5 }),
          createGeminiGenerator({ model: "gemini-2.5-pro", apiKey: key, baseURL: fake.url, policy, temperature: 1 }),
        ]),
    );
    report("Gemini", "gemini-2.5-flash + gemini-2.5-pro", on, off);
    // A normalized image is 516 or 1,032 tokens on Gemini 2.5 and the whole prompt stays under 2,048 (ai.google.dev/gemini-api/docs/caching).
    expect(generators!.map((g) => g.cachesPrompts)).toEqual([false, false]);
    expect(Math.max(...[on, off].map((f) => f.shares.promptTokens / f.shares.calls))).toBeLessThan(2048);
    expect(on.shares.cachedTokens).toBe(0);
    expect(off.shares.cachedTokens).toBe(0);
  }, 120_000);
});
