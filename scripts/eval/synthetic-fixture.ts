import { fixtureStatistics, type FixtureStatistics } from "./pixel-statistics.ts";
import { encodePng, type RgbImage } from "./png.ts";
import { gaussian, mulberry32, shuffled } from "./seeded-random.ts";

// The synthetic eval fixture (examples/eval): creatives whose outcome is a known function of
// their own pixel statistics plus seeded noise, a shuffled control, and labelled pairs. It
// proves the eval harness end to end (a model that reads those statistics must agree, a
// shuffled control must not); it says nothing about how well any model predicts real results.

export const FIXTURE_SEED = 19;
export const IMAGE_SIZE = 96;
export const PER_CAMPAIGN = 12;

/** The campaigns (groups) and the goal each is ranked for. */
export const CAMPAIGNS = [
  { campaign: "spring-sale", goal: "purchase-intent" },
  { campaign: "summer-launch", goal: "click-through-rate" },
  { campaign: "autumn-promo", goal: "scroll-stopping" },
] as const;

/**
 * outcome = INTERCEPT + PER_CONTRAST · σ_L + PER_COLOURFULNESS · M + ε,  ε ~ N(0, NOISE_SD²)
 * read as a click-through rate in percent; σ_L and M as in `fixtureStatistics`.
 */
export const OUTCOME = { intercept: 0.4, perContrast: 0.02, perColourfulness: 0.012, noiseSd: 0.15, decimals: 3 } as const;

export const LABELLED_PAIRS = 10;

export interface FixtureCreative {
  id: string;
  /** Relative to examples/eval. */
  image: string;
  campaign: string;
  goal: string;
  pixels: RgbImage;
  stats: FixtureStatistics;
  /** The outcome function without noise. */
  expected: number;
  /** With noise, rounded: what synthetic.csv says. */
  outcome: number;
}

export interface SyntheticFixture {
  creatives: FixtureCreative[];
  /** Every file the generator writes, by path relative to examples/eval. */
  files: Map<string, Buffer>;
}

const LUMA = [0.299, 0.587, 0.114] as const;
const clampByte = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

/** An RGB colour of the given Rec. 601 luma and chroma: hue `angle` (radians), chroma `amount` (0 is grey). */
function colour(luma: number, angle: number, amount: number): [number, number, number] {
  // A hue direction with zero luma: cosines 120° apart, less their own luma along grey.
  const d = [Math.cos(angle), Math.cos(angle - (2 * Math.PI) / 3), Math.cos(angle + (2 * Math.PI) / 3)];
  const dl = LUMA[0] * d[0]! + LUMA[1] * d[1]! + LUMA[2] * d[2]!;
  return [0, 1, 2].map((i) => luma + amount * (d[i]! - dl)) as [number, number, number];
}

interface Design {
  /** 0..1: luma distance between the ground and the subject. */
  contrast: number;
  /** 0..1: chroma of the ground and the subject. */
  colour: number;
  hue: number;
  cx: number;
  cy: number;
  radius: number;
}

/**
 * A small ad: a tinted ground with a soft vertical gradient, a product disc, two lines of
 * "headline" and a call-to-action bar. Exposure stays good (mean luma near 145) whatever the
 * contrast, so the designs differ in contrast and colour, not in brightness.
 */
function draw(design: Design): RgbImage {
  const size = IMAGE_SIZE;
  const subjectShare = 0.22;
  const spread = 25 + 115 * design.contrast;
  const groundLuma = 145 + subjectShare * spread;
  const subjectLuma = 145 - (1 - subjectShare) * spread;
  const chroma = 6 + 95 * design.colour;
  const ground = colour(groundLuma, design.hue, chroma * 0.6);
  const subject = colour(subjectLuma, design.hue + Math.PI, chroma);
  const text = colour(Math.max(20, groundLuma - 75), design.hue, chroma * 0.2);
  const rgb = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    const shade = 6 - (12 * y) / size;
    for (let x = 0; x < size; x++) {
      let c: [number, number, number] = [ground[0] + shade, ground[1] + shade, ground[2] + shade];
      // Anti-aliased disc: the share of the pixel inside the circle.
      const inside = Math.max(0, Math.min(1, design.radius - Math.hypot(x + 0.5 - design.cx, y + 0.5 - design.cy) + 0.5));
      if (inside > 0) c = c.map((v, i) => v + inside * (subject[i]! - v)) as [number, number, number];
      const headline = (y >= 62 && y < 64 && x >= 18 && x < 78) || (y >= 67 && y < 69 && x >= 26 && x < 70);
      if (headline) c = text;
      if (y >= 76 && y < 88 && x >= 24 && x < 72) c = subject;
      const at = (y * size + x) * 3;
      for (let i = 0; i < 3; i++) rgb[at + i] = clampByte(c[i]!);
    }
  }
  return { width: size, height: size, rgb };
}

const round = (v: number, decimals: number) => Number(v.toFixed(decimals));

/** Contrast and colour levels spread evenly over 0..1 in each campaign, paired at random. */
function designs(random: () => number): Design[] {
  const levels = (n: number) => shuffled(Array.from({ length: n }, (_, i) => (i + random()) / n), random);
  const contrast = levels(PER_CAMPAIGN);
  const colourLevels = levels(PER_CAMPAIGN);
  return contrast.map((c, i) => ({
    contrast: c,
    colour: colourLevels[i]!,
    hue: random() * 2 * Math.PI,
    cx: 40 + random() * 16,
    cy: 32 + random() * 6,
    radius: 17 + random() * 5,
  }));
}

const csv = (header: string[], rows: Array<Array<string | number>>) => `${[header, ...rows].map((r) => r.join(",")).join("\n")}\n`;

/** Builds the whole fixture in memory; the same seed gives the same pixels and files. */
export function syntheticFixture(seed = FIXTURE_SEED): SyntheticFixture {
  const random = mulberry32(seed);
  const creatives: FixtureCreative[] = [];
  for (const { campaign, goal } of CAMPAIGNS) {
    designs(random).forEach((design, i) => {
      const id = `${campaign}-${String(i + 1).padStart(2, "0")}`;
      const pixels = draw(design);
      const stats = fixtureStatistics(pixels);
      const expected = OUTCOME.intercept + OUTCOME.perContrast * stats.lumaContrast + OUTCOME.perColourfulness * stats.colourfulness;
      const outcome = round(expected + OUTCOME.noiseSd * gaussian(random), OUTCOME.decimals);
      creatives.push({ id, image: `images/${id}.png`, campaign, goal, pixels, stats, expected, outcome });
    });
  }

  const files = new Map<string, Buffer>();
  for (const c of creatives) files.set(c.image, encodePng(c.pixels));
  const header = ["image", "id", "outcome", "campaign", "goal"];
  files.set("synthetic.csv", Buffer.from(csv(header, creatives.map((c) => [c.image, c.id, c.outcome, c.campaign, c.goal]))));

  // The control: the same rows, each campaign's outcomes permuted among its own creatives.
  const shuffledOutcomes = new Map<string, number>();
  for (const { campaign } of CAMPAIGNS) {
    const group = creatives.filter((c) => c.campaign === campaign);
    const permuted = shuffled(group.map((c) => c.outcome), random);
    group.forEach((c, i) => shuffledOutcomes.set(c.id, permuted[i]!));
  }
  files.set("synthetic-shuffled.csv", Buffer.from(csv(header, creatives.map((c) => [c.image, c.id, shuffledOutcomes.get(c.id)!, c.campaign, c.goal]))));

  files.set("synthetic-pairs.csv", Buffer.from(csv(["image_a", "image_b", "winner", "campaign", "goal"], labelledPairs(creatives, random))));
  return { creatives, files };
}

/** Pairs inside one campaign, its winner the creative with the higher outcome, sides drawn at random. */
function labelledPairs(creatives: FixtureCreative[], random: () => number): Array<Array<string | number>> {
  const rows: Array<Array<string | number>> = [];
  const used = new Set<string>();
  while (rows.length < LABELLED_PAIRS) {
    const { campaign } = CAMPAIGNS[rows.length % CAMPAIGNS.length]!;
    const group = creatives.filter((c) => c.campaign === campaign);
    const [first, second] = shuffled(group, random) as [FixtureCreative, FixtureCreative];
    const key = [first.id, second.id].sort().join(" ");
    if (used.has(key) || first.outcome === second.outcome) continue;
    used.add(key);
    rows.push([first.image, second.image, first.outcome > second.outcome ? "a" : "b", campaign, first.goal]);
  }
  return rows;
}
