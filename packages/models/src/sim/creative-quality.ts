import type { Goal } from "@adrank/contracts";
import type { VisualWeights } from "@adrank/ssr";
import type { CopyFields } from "../types.ts";
import { copySignals, type CopySignals } from "./copy-signals.ts";
import { goalProfile } from "./goal-profile.ts";
import type { ImageStats } from "./image-stats.ts";
import { creativeCues } from "./persona-cues.ts";
import { personaHarshness } from "./persona-harshness.ts";
import { personaEffects, personaPoints, type PersonaEffect } from "./persona-rules.ts";
import { aspectFit, type AspectFit } from "./platform-fit.ts";
import type { Driver } from "./stance-wording.ts";

/** Each 0..1, higher is better. */
export type VisualScores = Record<keyof VisualWeights, number>;

export interface CreativeContext {
  goal: Goal;
  assetType: string;
  platform: string | null;
  demographics: Record<string, string>;
}

export interface Assessment {
  /** Quality on the 1..5 answer scale, before per-sample jitter: `softBound(rawQ)`. */
  q: number;
  /** The formula's value before bounding; may leave 1..5. Samples add their jitter here. */
  rawQ: number;
  visual: VisualScores | null;
  /** Weighted geometric mean of `visual`, 0..1. */
  visualQuality: number | null;
  aspect: AspectFit | null;
  copy: CopySignals | null;
  harshness: number;
  /** The persona rules this creative set off for this audience (persona-rules.ts); their points are P. */
  personaEffects: PersonaEffect[];
  /** Third-person observations, most notable first: problems, then strengths. */
  observations: string[];
  /** The same observations in the same order, each with whether it helps (+1) or hurts (−1). */
  drivers: Driver[];
}

interface Note {
  text: string;
  weight: number;
  tone: -1 | 1;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * Maps raw statistics to sub-scores with smooth curves, so two different good images rarely
 * tie and the scores keep a spread:
 * - exposure: 1 for mean luma 100..185, Gaussian fall-off outside (dark side steeper, as
 *   light backgrounds are common in good ads while murk rarely is);
 * - contrast: 1 − e^(−σL/35);
 * - colour: 0.2 + 0.8·(1 − e^(−M/45)); a black-and-white image is not worthless;
 * - sharpness: logistic in log10 of the Laplacian variance, midpoint ≈ 63;
 * - composition: penalizes fine noise (Laplacian energy far above the contrast), busy edge
 *   maps, and images with almost no edges (no visible subject).
 */
export function visualScores(stats: ImageStats): VisualScores {
  const b = stats.brightness;
  const exposure = b < 100 ? Math.exp(-(((100 - b) / 45) ** 2)) : b > 185 ? Math.exp(-(((b - 185) / 70) ** 2)) : 1;
  const contrast = 1 - Math.exp(-stats.contrast / 35);
  const colour = 0.2 + 0.8 * (1 - Math.exp(-stats.colourfulness / 45));
  const sharpness = logistic((Math.log10(stats.sharpness + 1) - 1.8) * 2.5);
  const noise = Math.sqrt(stats.sharpness) / (stats.contrast + 5);
  const clean = 1 - clamp01((noise - 1) / 1.5);
  const uncluttered = 1 - clamp01((stats.edgeDensity - 0.12) / 0.2);
  const subject = stats.edgeDensity < 0.01 ? 0.3 + 70 * stats.edgeDensity : 1;
  return { exposure, contrast, colour, sharpness, composition: Math.min(clean, uncluttered) * subject };
}

/** The weakest sub-score drags the whole down: a flat or noisy image is not rescued by one good trait. */
export function visualQuality(scores: VisualScores, weights: VisualWeights): number {
  let sum = 0;
  let total = 0;
  for (const key of Object.keys(weights) as Array<keyof VisualWeights>) {
    sum += weights[key] * Math.log(Math.max(0.05, scores[key]));
    total += weights[key];
  }
  return Math.exp(sum / total);
}

function visualObservations(stats: ImageStats, s: VisualScores): Note[] {
  const out: Note[] = [];
  // Problems always outrank strengths; among problems, the worse comes first.
  const problem = (score: number, text: string) => out.push({ text, weight: 1 + (0.6 - score), tone: -1 });
  const strength = (score: number, text: string) => out.push({ text, weight: score - 0.6, tone: 1 });
  const dark = stats.brightness < 100;
  if (s.exposure < 0.5) problem(s.exposure, dark ? "the image is dark" : "the image is washed out by very bright tones");
  else if (s.exposure < 0.85) problem(s.exposure, dark ? "the image is a little dark" : "the image is very bright");
  if (s.contrast < 0.35) problem(s.contrast, "the contrast is low");
  else if (s.contrast < 0.6) problem(s.contrast, "the contrast is modest");
  else if (s.contrast > 0.8) strength(s.contrast, "the contrast is strong");
  if (s.colour < 0.4) problem(s.colour, "the palette is muted, close to colourless");
  else if (s.colour < 0.6) problem(s.colour, "the colours are muted");
  else if (s.colour > 0.85) strength(s.colour, "the colours are vivid");
  const noisy = Math.sqrt(stats.sharpness) / (stats.contrast + 5) > 1.5;
  if (s.composition < 0.5) problem(s.composition, noisy ? "the image is visually noisy and cluttered" : stats.edgeDensity < 0.01 ? "there is little visible subject" : "the layout is busy");
  else if (s.composition > 0.9) strength(s.composition * 0.9, "the layout is clean and uncluttered");
  if (s.sharpness < 0.35) problem(s.sharpness, "the image looks soft or blurred");
  else if (s.sharpness < 0.6 && !noisy) problem(s.sharpness, "the detail is a little soft");
  else if (s.sharpness > 0.85 && !noisy) strength(s.sharpness, "the details are crisp");
  return out;
}

/**
 * The sim's judgement of one creative, deterministic in its inputs:
 *
 *   q = softBound(1 + 4·B + A − H + P)
 *
 * with B the base quality in 0..1 — the visual quality V alone, (1 − s)·V + s·C with copy
 * (s the goal's copy share, C the copy score), or 0.1 + 0.8·C for copy without a usable
 * image — A = 0.8·(fit − 0.75) the aspect adjustment when the placement is known (0
 * otherwise; +0.2 for a perfect fit, −0.6 for the worst), H the persona's harshness (the
 * same for every creative) and P the sum of the persona rules this creative sets off (a
 * price offer for a price-sensitive audience, sweeping claims for a sceptical one, …), which
 * is what lets two audiences order the same creatives differently.
 */
export function assessCreative(image: ImageStats | null, copy: CopyFields | null, context: CreativeContext): Assessment {
  const goal = goalProfile(context.goal);
  const visual = image ? visualScores(image) : null;
  const quality = visual ? visualQuality(visual, goal.weights) : null;
  const copyRead = copy && Object.values(copy).some((v) => v.trim()) ? copySignals(copy) : null;
  const aspect = image ? aspectFit(image.width, image.height, context.platform, context.assetType) : null;
  const harshness = personaHarshness(context.demographics);
  const effects = personaEffects(context.demographics, creativeCues(image, copy));

  let base: number;
  if (quality !== null && copyRead) base = (1 - goal.copyShare) * quality + goal.copyShare * copyRead.score;
  else if (quality !== null) base = quality;
  else if (copyRead) base = 0.1 + 0.8 * copyRead.score;
  else base = 0;
  const aspectAdjustment = aspect ? 0.8 * (aspect.fit - 0.75) : 0;
  const rawQ = 1 + 4 * base + aspectAdjustment - harshness + personaPoints(effects);

  const notes = image && visual ? visualObservations(image, visual) : [];
  if (aspect && aspect.fit < 0.5) notes.push({ text: `its ${shapeName(image)} shape suits ${aspect.placement} poorly`, weight: 1.5 - aspect.fit, tone: -1 });
  else if (aspect && aspect.fit > 0.9) notes.push({ text: `its shape suits ${aspect.placement}`, weight: 0.3, tone: 1 });
  if (copyRead) {
    copyRead.notes.forEach((text) => notes.push({ text, weight: 1.05, tone: -1 }));
    copyRead.strengths.forEach((text) => notes.push({ text, weight: 0.25, tone: 1 }));
  }
  // The audience's reasons rank by how far they move the score: a full-strength one leads the rationale.
  for (const e of effects) notes.push({ text: e.text, weight: 0.6 + 2 * Math.abs(e.points), tone: e.points > 0 ? 1 : -1 });
  notes.sort((a, b) => b.weight - a.weight);
  const drivers = notes.map(({ text, tone }) => ({ text, tone }));
  return { q: softBound(rawQ), rawQ, visual, visualQuality: quality, aspect, copy: copyRead, harshness, personaEffects: effects, observations: drivers.map((d) => d.text), drivers };
}

/**
 * Identity on 1.5..4.5 and an exponential approach to 1 and 5 beyond, so that strong
 * creatives keep their order instead of all clipping to 5. Monotone, with slope 1 at the joins.
 */
export function softBound(x: number): number {
  const knee = 0.5;
  if (x > 5 - knee) return 5 - knee * Math.exp(-(x - (5 - knee)) / knee);
  if (x < 1 + knee) return 1 + knee * Math.exp(-(1 + knee - x) / knee);
  return x;
}

function shapeName(image: ImageStats | null): string {
  if (!image) return "";
  const r = image.width / image.height;
  if (r > 1.15) return "wide";
  if (r < 0.87) return "tall";
  return "square";
}
