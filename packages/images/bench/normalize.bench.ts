// Normalization cost of a large photo, and of a cache hit.
// Run: node packages/images/bench/normalize.bench.ts
import { randomInt } from "node:crypto";
import sharp from "sharp";
import { createImageIntake } from "../src/index.ts";
import { prepareImage } from "../src/prepare-image.ts";

const WIDTH = 4000;
const HEIGHT = 3000;
const RUNS = 20;

// libvips' own operation cache would answer repeats of one input from memory; the intake
// never sees the same bytes twice without its own cache, so measure without it.
sharp.cache(false);

/** Smooth gradients and shapes plus per-pixel noise: compresses and decodes like a photo. */
function photoPixels(): Buffer {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  const noise = Buffer.alloc(WIDTH * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let i = 0; i < noise.length; i++) noise[i] = randomInt(0, 24);
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      const shade = 80 * Math.sin(x / 310) * Math.cos(y / 170);
      pixels[i] = Math.min(255, (200 * x) / WIDTH + shade + 30 + noise[x * 3]!);
      pixels[i + 1] = Math.min(255, (200 * y) / HEIGHT + 20 + noise[x * 3 + 1]!);
      pixels[i + 2] = Math.min(255, 120 - shade + noise[x * 3 + 2]!);
    }
  }
  return pixels;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function report(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(1).padStart(7);
  console.log(`${label.padEnd(34)} n=${String(sorted.length).padStart(2)}  p50 ${fmt(percentile(sorted, 50))} ms  p95 ${fmt(percentile(sorted, 95))} ms  max ${fmt(sorted.at(-1) ?? Number.NaN)} ms`);
}

const jpeg = await sharp(photoPixels(), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
console.log(`source: ${WIDTH} x ${HEIGHT} JPEG, ${(jpeg.byteLength / 1024 / 1024).toFixed(2)} MiB; libvips threads ${sharp.concurrency()}`);

await prepareImage(jpeg, "jpeg", 40_000_000); // warm-up: loads codecs
const normalize: number[] = [];
let out = { width: 0, height: 0, bytes: 0 };
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const result = await prepareImage(jpeg, "jpeg", 40_000_000);
  normalize.push(performance.now() - started);
  if (!result.ok) throw new Error(result.error);
  out = { width: result.image.width, height: result.image.height, bytes: result.image.bytes.byteLength };
}
console.log(`output: ${out.width} x ${out.height} JPEG, ${(out.bytes / 1024).toFixed(0)} KiB`);
report("normalize (decode, resize, encode)", normalize);

const uri = `data:image/jpeg;base64,${jpeg.toString("base64")}`;
const intake = createImageIntake();
const miss: number[] = [];
const hit: number[] = [];
{
  const started = performance.now();
  await intake.intake(uri);
  miss.push(performance.now() - started);
}
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const result = await intake.intake(uri);
  hit.push(performance.now() - started);
  if (!result.ok) throw new Error(result.error);
}
report("data URI intake, first (miss)", miss);
report("data URI intake, cache hit", hit);
console.log(`cache: ${JSON.stringify(intake.cacheStats())}`);
