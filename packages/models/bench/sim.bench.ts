// CPU of one offline-sim scoring evaluation: the 6 "rate" samples (3 repetitions x 2
// generators) of one image with copy and a persona, and the embedding of their 6 answers.
// Each measured evaluation rates an image not seen before, as when a customer ranks many
// images for one audience; image decoding (sharp, once per image) is left out by measuring
// the images into the shared stats cache first, so the figures are the sim's own work.
// Run: node packages/models/bench/sim.bench.ts
// With SIM_BENCH_BASELINE_MS=<CPU per evaluation of an earlier run> it also prints the ratio to it.
import sharp from "sharp";
import { createImageStatsCache, createSimEmbedder, createSimGenerator, type CopyFields, type Generator, type ImageInput, type SimHints } from "../src/index.ts";
import { crispCreative } from "../test/support/test-images.ts";

const WARM_UP_IMAGES = 60;
const MEASURED_IMAGES = 300;
/** Shapes from square to banner: the placement fit, and so the wording, differs between them. */
const SHAPES: Array<[number, number]> = [[320, 320], [320, 400], [360, 640], [480, 270], [400, 210], [300, 300], [256, 320]];

const COPY: CopyFields = {
  pageName: "Northwind Coffee",
  adHeadline: "Brew better coffee at home",
  adBody: "Our grinder gives cafe-quality grounds in 20 seconds. Free shipping this week.",
  adCaption: "Shop now",
};
const PERSONA = { adSkepticism: "high", priceSensitivity: "moderate", shoppingIntent: "researching", platformFatigue: "medium" };

/** A deterministic draw in [0, 1) per image and property. */
const draw = (image: number, property: number) => ((Math.imul(image + 1, 2654435761 + property * 97) >>> 0) % 1000) / 1000;

/**
 * Creatives that differ as a campaign's do: shape, exposure, saturation, focus and contrast,
 * so their flaws and strengths, and with them the answers' wording, vary between images.
 */
async function creative(n: number): Promise<ImageInput> {
  const [width, height] = SHAPES[n % SHAPES.length]!;
  let image = sharp(Buffer.from(await crispCreative(width, height, n))).modulate({ brightness: 0.35 + draw(n, 1), saturation: 0.1 + 1.4 * draw(n, 2) });
  if (draw(n, 3) > 0.1) image = image.blur(0.3 + 4 * draw(n, 3));
  if (draw(n, 4) > 0.6) image = image.linear(0.3 + 0.7 * draw(n, 5), 40 * draw(n, 6));
  return { bytes: new Uint8Array(await image.png().toBuffer()), mime: "image/png" };
}

const images = (count: number, offset: number) => Promise.all(Array.from({ length: count }, (_, i) => creative(offset + i)));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function report(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(3).padStart(7);
  console.log(`${label.padEnd(34)} n=${String(sorted.length).padStart(3)}  p50 ${fmt(percentile(sorted, 50))} ms  p95 ${fmt(percentile(sorted, 95))} ms  p99 ${fmt(percentile(sorted, 99))} ms  max ${fmt(sorted.at(-1) ?? Number.NaN)} ms`);
}

const statsCache = createImageStatsCache(1024);
const generators: Generator[] = [createSimGenerator({ model: "sim-gen-a", statsCache }), createSimGenerator({ model: "sim-gen-b", statsCache })];
const embedder = createSimEmbedder();
const hints = (repetition: number, generatorIndex: number): SimHints => ({
  task: "rate",
  goal: "purchase-intent",
  assetType: "Social Media Post",
  platform: "instagram",
  copy: COPY,
  demographics: PERSONA,
  repetition,
  generatorIndex,
});

/** One evaluation as the scorer runs it; returns the answers' embeddings. */
async function evaluation(image: ImageInput): Promise<number[][]> {
  const calls = [0, 1, 2].flatMap((repetition) => [0, 1].map((generatorIndex) => ({ repetition, generatorIndex })));
  const results = await Promise.all(calls.map(({ repetition, generatorIndex }) => generators[generatorIndex]!.generate({ system: "", user: "", images: [image], simHints: hints(repetition, generatorIndex) })));
  // What the scorer embeds: the answer above the closing RATIONALE and PRODUCT lines.
  return embedder.embed(results.map((r) => r.text.split("\nRATIONALE:")[0]!));
}

const [warmUp, measured] = await Promise.all([images(WARM_UP_IMAGES, 0), images(MEASURED_IMAGES, WARM_UP_IMAGES)]);
for (const image of [...warmUp, ...measured]) await statsCache.measure(image.bytes);
console.log(`images: ${WARM_UP_IMAGES} warm-up, ${MEASURED_IMAGES} measured, each rated in one evaluation (stats pre-measured)`);

for (const image of warmUp) await evaluation(image);

const wall: number[] = [];
let checksum = 0;
const cpuStart = process.cpuUsage();
const started = performance.now();
for (const image of measured) {
  const t0 = performance.now();
  const vectors = await evaluation(image);
  wall.push(performance.now() - t0);
  checksum += vectors.reduce((s, v) => s + v[0]! + v.at(-1)!, 0);
}
const elapsed = performance.now() - started;
const cpu = process.cpuUsage(cpuStart);
report("evaluation (6 rate + embed 6)", wall);
const cpuPerEvaluation = (cpu.user + cpu.system) / 1000 / MEASURED_IMAGES;
console.log(`process CPU per evaluation: ${cpuPerEvaluation.toFixed(3)} ms (wall ${(elapsed / MEASURED_IMAGES).toFixed(3)} ms); CPU / wall ${((cpu.user + cpu.system) / 1000 / elapsed).toFixed(2)}`);
const baseline = Number(process.env.SIM_BENCH_BASELINE_MS);
if (baseline > 0) console.log(`ratio: baseline ${baseline.toFixed(3)} ms / now ${cpuPerEvaluation.toFixed(3)} ms = ${(baseline / cpuPerEvaluation).toFixed(2)}x less CPU per evaluation`);
// Equal across runs of the same code: a change that alters any output alters this.
console.log(`output checksum: ${checksum.toFixed(12)}`);
