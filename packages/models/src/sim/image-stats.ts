import { createHash } from "node:crypto";
import sharp from "sharp";
import { BoundedCache } from "./bounded-cache.ts";

/** Measured pixel statistics of one image, on a copy scaled to fit 256 x 256. */
export interface ImageStats {
  /** sha256 of the original bytes, hex. */
  hash: string;
  width: number;
  height: number;
  /** Mean Rec. 601 luma, 0..255. */
  brightness: number;
  /** Standard deviation of luma, 0..~128. */
  contrast: number;
  /** Hasler and Suesstrunk (2003): 0 grey, ~33 moderately, ~59 highly, 80+ extremely colourful. */
  colourfulness: number;
  /** Variance of the 4-neighbour Laplacian of luma; higher is crisper (and noisier). */
  sharpness: number;
  /** Share of pixels whose Sobel gradient magnitude exceeds EDGE_THRESHOLD, 0..1. */
  edgeDensity: number;
}

/** Analysis size: statistics of differently sized uploads stay comparable. */
const ANALYSIS_SIZE = 256;
const EDGE_THRESHOLD = 48;

export function hashBytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Decodes and measures an image. Deterministic: the same bytes give the same numbers. */
export async function measureImage(bytes: Uint8Array, hash = hashBytes(bytes)): Promise<ImageStats> {
  const image = sharp(bytes, { limitInputPixels: 100_000_000 });
  const meta = await image.metadata();
  const { data, info } = await image
    .rotate()
    .flatten({ background: "#ffffff" })
    .resize(ANALYSIS_SIZE, ANALYSIS_SIZE, { fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const orientedSwap = (meta.orientation ?? 1) >= 5;
  const width = (orientedSwap ? meta.height : meta.width) ?? info.width;
  const height = (orientedSwap ? meta.width : meta.height) ?? info.height;
  return { hash, width, height, ...pixelStatistics(data, info.width, info.height, info.channels) };
}

/** The statistics of an interleaved 8-bit RGB(A) buffer. */
export function pixelStatistics(data: Uint8Array, w: number, h: number, channels: number): Omit<ImageStats, "hash" | "width" | "height"> {
  const n = w * h;
  const luma = new Float64Array(n);
  let sumL = 0, sumL2 = 0, sumRg = 0, sumRg2 = 0, sumYb = 0, sumYb2 = 0;
  for (let i = 0; i < n; i++) {
    const r = data[i * channels] ?? 0;
    const g = data[i * channels + 1] ?? 0;
    const b = data[i * channels + 2] ?? 0;
    const l = 0.299 * r + 0.587 * g + 0.114 * b;
    luma[i] = l;
    sumL += l;
    sumL2 += l * l;
    const rg = r - g;
    const yb = 0.5 * (r + g) - b;
    sumRg += rg;
    sumRg2 += rg * rg;
    sumYb += yb;
    sumYb2 += yb * yb;
  }
  const mean = (s: number) => s / n;
  const std = (s: number, s2: number) => Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
  const colourfulness = Math.hypot(std(sumRg, sumRg2), std(sumYb, sumYb2)) + 0.3 * Math.hypot(mean(sumRg), mean(sumYb));

  let lapSum = 0, lapSum2 = 0, edges = 0, inner = 0;
  const at = (x: number, y: number) => luma[y * w + x] ?? 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const lap = at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) - 4 * at(x, y);
      lapSum += lap;
      lapSum2 += lap * lap;
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      if (Math.hypot(gx, gy) / 4 > EDGE_THRESHOLD) edges++;
      inner++;
    }
  }
  return {
    brightness: mean(sumL),
    contrast: std(sumL, sumL2),
    colourfulness,
    sharpness: inner ? Math.max(0, lapSum2 / inner - (lapSum / inner) ** 2) : 0,
    edgeDensity: inner ? edges / inner : 0,
  };
}

/** Measurements by content hash, so the six samples of an evaluation decode an image once. */
export interface ImageStatsCache {
  measure(bytes: Uint8Array): Promise<ImageStats>;
}

export function createImageStatsCache(capacity = 256): ImageStatsCache {
  const entries = new BoundedCache<string, Promise<ImageStats>>(capacity);
  return {
    measure(bytes) {
      const key = hashBytes(bytes);
      const hit = entries.get(key);
      if (hit) return hit;
      const pending = measureImage(bytes, key);
      entries.set(key, pending);
      // A failed decode must not be remembered: the next caller gets a fresh attempt.
      pending.catch(() => entries.delete(key));
      return pending;
    },
  };
}
