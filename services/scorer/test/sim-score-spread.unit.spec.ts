import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { assessCreative, createImageStatsCache, createSimEmbedder, createSimGenerator, measureImage, type Generator } from "@adrank/models";
import type { Evaluation, ScoreJob } from "@adrank/bus-contracts";
import { ANCHOR_SETS, anchorSets, sampleFromSimilarities, similaritiesToAnchors } from "@adrank/ssr";
import { createAnchorEmbeddings } from "../src/anchor-embeddings.ts";
import { evaluate } from "../src/evaluate.ts";

// The offline sim must spread its scores like a rating would: unrelated creatives do not
// tie, and the order of the scores follows what the pixels show (issue 17).

const EXAMPLES = fileURLToPath(new URL("../../../examples/ads/", import.meta.url));
const EXAMPLE_NAMES = ["spring-sale.png", "summer-launch.png", "autumn-promo.png"] as const;
type Goal = ScoreJob["persona"]["goal"];
const GOALS = Object.keys(ANCHOR_SETS) as Goal[];

/** The scorer's offline models, as the service wires them; a fresh set shares no state with another. */
function simModels() {
  const cache = createImageStatsCache();
  const embedder = createSimEmbedder();
  const generators: [Generator, Generator] = [createSimGenerator({ model: "sim-gen-a", statsCache: cache }), createSimGenerator({ model: "sim-gen-b", statsCache: cache })];
  return { embedder, generators, anchors: createAnchorEmbeddings(embedder, anchorSets) };
}
const models = simModels();

/** The default persona of a goal: a named audience with no demographics, a social post, no placement. */
const persona = (goal: Goal): ScoreJob["persona"] => ({ audience: { name: "Trail runners", demographics: {} }, goal, assetType: "Social Media Post", platform: null, campaignType: null });

async function score(bytes: Uint8Array, goal: Goal = "purchase-intent", deps = models): Promise<Evaluation> {
  const ref = createHash("sha256").update(bytes).digest("hex");
  const job: ScoreJob = {
    requestId: "0b6f3c52-7a1d-4e8b-9c2f-5d4e3a2b1c0d",
    jobId: `spread-${ref.slice(0, 8)}-${goal}`,
    deadline: Date.now() + 60_000,
    layer: "image-only",
    image: { ref, mime: "image/png", width: 800, height: 800 },
    copy: null,
    persona: persona(goal),
  };
  return evaluate(job, { ...deps, loadImage: async () => bytes }, AbortSignal.timeout(30_000));
}

/** The sim's own reading of the pixels, before any wording: what the score should track. */
const assessedQ = async (bytes: Uint8Array, goal: Goal = "purchase-intent") => assessCreative(await measureImage(bytes), null, { goal, assetType: "Social Media Post", platform: null, demographics: {} }).q;

/** Spearman's rank correlation, average ranks for ties. */
function spearman(xs: number[], ys: number[]): number {
  const ranks = (v: number[]) => {
    const order = v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(v.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
      for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1;
      i = j + 1;
    }
    return r;
  };
  const [rx, ry] = [ranks(xs), ranks(ys)];
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const [mx, my] = [mean(rx), mean(ry)];
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i]! - mx) * (ry[i]! - my);
    sxx += (rx[i]! - mx) ** 2;
    syy += (ry[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

interface Variant {
  name: string;
  width: number;
  height: number;
  hue: number;
  brightness: number;
  saturation: number;
  /** Linear contrast about mid-grey: 1 leaves it, below 1 flattens. */
  contrast: number;
  blur: number;
  /** Amplitude of added colour noise, 0..255. */
  noise: number;
}

const SIZES = [[480, 480], [640, 400], [360, 640], [520, 520], [720, 480]] as const;

/** The i-th point of an additive recurrence in [0, 1): evenly spread, no randomness. */
const spread = (i: number, step: number) => (0.5 + i * step) % 1;

type Flaw = "dim" | "glare" | "flat" | "muted" | "soft" | "noisy";

/** A flaw at severity 0..1 (0 leaves the creative alone), as changes to the clean rendering. */
function flawed(flaw: Flaw, severity: number): Partial<Variant> {
  switch (flaw) {
    case "dim": return { brightness: 1 - 0.8 * severity };
    case "glare": return { brightness: 1 + 0.6 * severity };
    case "flat": return { contrast: 1 - 0.9 * severity };
    case "muted": return { saturation: 1 - severity };
    case "soft": return { blur: 0.3 + 12 * severity };
    case "noisy": return { noise: 200 * severity };
  }
}

/**
 * 120 varied creatives from clean to ruined: the overall severity rises evenly along the
 * pool, and each creative spreads it over the flaws in its own proportions (one mostly dim,
 * the next mostly soft or noisy …), on five sizes and as many hues.
 */
const POOL: Variant[] = Array.from({ length: 120 }, (_, i) => {
  const [width, height] = SIZES[i % SIZES.length]!;
  const severity = i / 119;
  const clean: Variant = { name: `creative-${i}`, width, height, hue: (i * 47) % 360, brightness: 1, saturation: 1, contrast: 1, blur: 0, noise: 0 };
  const share = (k: number) => severity * (0.25 + 0.75 * spread(i, [0.6180339887, 0.4142135624, 0.7320508076, 0.2360679775, 0.3166247904][k]!));
  const light = i % 4 === 3 ? flawed("glare", share(0)) : flawed("dim", share(0));
  return { ...clean, ...light, ...flawed("flat", share(1)), ...flawed("muted", share(2)), ...(i % 2 ? flawed("soft", share(3)) : {}), ...(i % 3 === 2 ? flawed("noisy", share(4)) : {}) };
});
/** The test set: this many creatives of the pool whose qualities step evenly from its worst to its best. */
const SET_SIZE = 40;

function svg({ width, height, hue }: Variant): string {
  const u = Math.min(width, height);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="hsl(${hue}, 70%, 88%)"/>
  <circle cx="${width * 0.3}" cy="${height * 0.4}" r="${u * 0.2}" fill="hsl(${(hue + 340) % 360}, 85%, 50%)"/>
  <rect x="${width * 0.56}" y="${height * 0.22}" width="${u * 0.28}" height="${u * 0.4}" rx="${u * 0.03}" fill="hsl(${(hue + 200) % 360}, 80%, 35%)"/>
  <rect x="${width * 0.12}" y="${height * 0.75}" width="${width * 0.76}" height="${u * 0.11}" rx="${u * 0.05}" fill="hsl(${(hue + 40) % 360}, 90%, 55%)"/>
  <text x="${width * 0.5}" y="${height * 0.83}" font-size="${u * 0.06}" text-anchor="middle" font-family="sans-serif" fill="#111">SALE</text>
</svg>`;
}

async function render(v: Variant): Promise<Uint8Array> {
  let image = sharp(Buffer.from(svg(v))).modulate({ brightness: v.brightness, saturation: v.saturation });
  if (v.contrast !== 1) image = image.linear(v.contrast, 128 * (1 - v.contrast));
  if (v.blur > 0) image = image.blur(v.blur);
  let buffer = await image.removeAlpha().raw().toBuffer();
  if (v.noise > 0) {
    let s = (v.hue + 1) >>> 0;
    buffer = Buffer.from(buffer.map((x) => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return Math.min(255, Math.max(0, x + ((s >>> 24) / 255 - 0.5) * v.noise));
    }));
  }
  return new Uint8Array(await sharp(buffer, { raw: { width: v.width, height: v.height, channels: 3 } }).png().toBuffer());
}

const examples = EXAMPLE_NAMES.map((name) => new Uint8Array(readFileSync(join(EXAMPLES, name))));
let clean: Uint8Array;
let synthetic: Array<{ name: string; bytes: Uint8Array; q: number }> = [];

/**
 * Picks, for each of SET_SIZE evenly spaced qualities between the pool's worst and best, the
 * closest creative not yet picked: a batch that runs from poor to strong like a real one.
 * (Creatives the sim itself rates within a hundredth of each other may fairly tie; an even
 * spread keeps such coincidences out, so a tie here means the wording lost the difference.)
 */
beforeAll(async () => {
  const pool = await Promise.all(POOL.map(async (v) => {
    const bytes = await render(v);
    return { name: v.name, bytes, q: await assessedQ(bytes) };
  }));
  clean = pool[0]!.bytes;
  const qs = pool.map((c) => c.q);
  const [worst, best] = [Math.min(...qs), Math.max(...qs)];
  const left = new Set(pool);
  synthetic = Array.from({ length: SET_SIZE }, (_, k) => {
    const target = worst + ((best - worst) * k) / (SET_SIZE - 1);
    const pick = [...left].reduce((a, b) => (Math.abs(b.q - target) < Math.abs(a.q - target) ? b : a));
    left.delete(pick);
    return pick;
  });
});

const twoDecimals = (x: number) => x.toFixed(2);

describe("sim scores spread like ratings and follow the pixels", () => {
  it.each(GOALS)("reads %s's own anchor statements, embedded as answers, in level order", async (goal) => {
    const sets = await models.anchors.forGoal(goal);
    const reference = anchorSets(goal);
    const vectors = await models.embedder.embed(reference.flat());
    reference.forEach((set, s) => {
      const scores = set.map((_, level) => sampleFromSimilarities(similaritiesToAnchors(vectors[s * 5 + level]!, sets.map((r) => r.vectors))).score);
      for (let level = 1; level < 5; level++) expect(scores[level]!, `${goal} set ${s + 1}: ${scores.map(twoDecimals).join(" ")}`).toBeGreaterThan(scores[level - 1]! + 0.3);
    });
  });

  it.each(GOALS)("gives the three example creatives three different scores for %s", async (goal) => {
    const scores = await Promise.all(examples.map((b) => score(b, goal)));
    const shown = scores.map((e) => twoDecimals(e.score));
    expect(new Set(shown).size, `${goal}: ${EXAMPLE_NAMES.map((n, i) => `${n} ${shown[i]}`).join(", ")}`).toBe(3);
  });

  it("keeps at least 90% of 40 varied creatives apart at two decimals, in the order of the assessed quality", async () => {
    const scores = (await Promise.all(synthetic.map((c) => score(c.bytes)))).map((e) => e.score);
    const qs = synthetic.map((c) => c.q);
    const table = synthetic.map((c, i) => `${c.name} q=${c.q.toFixed(3)} score=${twoDecimals(scores[i]!)}`).join("\n");
    expect(synthetic.length).toBeGreaterThanOrEqual(24);
    expect(new Set(scores.map(twoDecimals)).size / synthetic.length, table).toBeGreaterThanOrEqual(0.9);
    expect(spearman(scores, qs), table).toBeGreaterThanOrEqual(0.9);
  });

  it("still reaches both ends of the scale: a blank grey field scores clearly low, a clean creative clearly high", async () => {
    const grey = new Uint8Array(await sharp({ create: { width: 600, height: 600, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toBuffer());
    expect((await score(grey)).score).toBeLessThan(2);
    expect((await score(clean)).score).toBeGreaterThan(4.2);
  });

  it("scores the same creative the same way twice, with the same rationale, even on fresh models", async () => {
    const [a, b] = [await score(examples[0]!), await score(examples[0]!, "purchase-intent", simModels())];
    expect(b.score).toBe(a.score);
    expect(b.rationale).toBe(a.rationale);
    expect(b.productRead).toBe(a.productRead);
  });
});
