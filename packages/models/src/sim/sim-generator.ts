import { ModelError } from "../model-error.ts";
import type { CopyFields, GenerateRequest, GenerateResult, Generator, ImageInput, SimHints } from "../types.ts";
import { ratingText, voteText } from "./answer-text.ts";
import { assessCreative, softBound, type Assessment } from "./creative-quality.ts";
import { unitHash } from "./fnv1a.ts";
import { createImageStatsCache, type ImageStats, type ImageStatsCache } from "./image-stats.ts";

export interface SimGeneratorOptions {
  /** Default "sim-gen-a". Part of a vote's jitter key, so two sim voters judge close calls differently. */
  model?: string;
  /** Share one across sim models so an image is decoded once. */
  statsCache?: ImageStatsCache;
}

/** Largest per-sample deviation of q, either way. */
export const SAMPLE_JITTER = 0.2;
/** A small primacy effect: the first image presented gets this much extra in a vote. */
export const FIRST_POSITION_BONUS = 0.04;

const DEFAULT_HINTS: SimHints = {
  task: "rate",
  goal: "purchase-intent",
  assetType: "Social Media Post",
  platform: null,
  copy: null,
  demographics: {},
  repetition: 0,
  generatorIndex: 0,
};

/**
 * The offline model: reads real pixel statistics of the given images (and the copy and
 * persona from `simHints`), never randomness. The same request gives the same text.
 *
 * @example
 * const gen = createSimGenerator({ model: "sim-gen-a" });
 * const { text } = await gen.generate({ system: "", user: "", images: [img], simHints });
 */
export function createSimGenerator(options: SimGeneratorOptions = {}): Generator {
  const model = options.model ?? "sim-gen-a";
  const cache = options.statsCache ?? createImageStatsCache();
  const target = { provider: "sim", model };

  const measure = async (images: ImageInput[]): Promise<ImageStats[]> => {
    try {
      return await Promise.all(images.map((i) => cache.measure(i.bytes)));
    } catch (err) {
      throw new ModelError({ ...target, kind: "refused", message: `sim model ${model} could not decode an image`, cause: err });
    }
  };

  const jitter = (key: string, size: number) => (unitHash(key) * 2 - 1) * size;
  // The sim IS that exact version: its answers are a pure function of its name and the request,
  // so the name is the version that answered, not a configured alias copied.
  const answer = (text: string): GenerateResult => ({ text, provider: "sim", model, modelVersion: model, simulated: true });

  return {
    provider: "sim",
    model,
    // Deterministic: no sampling temperature applies.
    temperature: null,
    thinking: null,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      if (req.signal?.aborted) throw new ModelError({ ...target, kind: "aborted", message: `call to sim model ${model} was cancelled`, cause: req.signal.reason });
      const hints: SimHints = req.simHints ?? { ...DEFAULT_HINTS, task: req.images.length === 2 ? "vote" : "rate" };
      const stats = await measure(req.images);
      const sample = `${model}|${hints.repetition}|${hints.generatorIndex}|${hints.goal}`;

      switch (hints.task) {
        case "rate": {
          if (stats.length > 1) throw new ModelError({ ...target, kind: "bad_response", message: `sim model ${model} rates one image at a time, got ${stats.length}` });
          const image = stats[0] ?? null;
          const assessment = assessCreative(image, hints.copy, hints);
          // Keyed by the image alone, so an ad package and its image-only ablation share their jitter.
          const subject = image ? image.hash : `copy:${JSON.stringify(hints.copy)}`;
          const q = softBound(assessment.rawQ + sampleJitter(`rate|${subject}|${hints.goal}`, hints.repetition * 2 + hints.generatorIndex));
          return answer(ratingText(q, assessment, hints.goal, hints.copy));
        }
        case "vote": {
          const [first, second] = stats;
          if (!first || !second || stats.length !== 2) throw new ModelError({ ...target, kind: "bad_response", message: `sim model ${model} votes on exactly two images, got ${stats.length}` });
          const copyOf = (i: 0 | 1): CopyFields | null => (hints.copyPerImage ? hints.copyPerImage[i] : hints.copy);
          // Each image is judged as what it is: its own asset type when the vote names one.
          const contextOf = (i: 0 | 1) => (hints.assetTypePerImage ? { ...hints, assetType: hints.assetTypePerImage[i] } : hints);
          const a = assessCreative(first, copyOf(0), contextOf(0));
          const b = assessCreative(second, copyOf(1), contextOf(1));
          const winner = pickWinner(a, b, first.hash, second.hash, (hash) => jitter(`vote|${hash}|${sample}`, SAMPLE_JITTER / 2));
          return answer(voteText(winner, a, b, hints.goal));
        }
        default: {
          const unknown: never = hints.task;
          throw new ModelError({ ...target, kind: "bad_response", message: `sim model ${model} has no task ${String(unknown)}` });
        }
      }
    },
  };
}

/** Samples of one evaluation: 3 repetitions × 2 generators. */
const SAMPLES_PER_EVALUATION = 6;

/**
 * The q offset of one sample of a rating, slot = 2·repetition + generatorIndex. The six
 * offsets of an evaluation are deterministic draws keyed by the creative and goal, centred so
 * they sum to zero and scaled to stay within ±SAMPLE_JITTER: the samples disagree a little,
 * as raters do, but the evaluation's mean is the creative's own quality, so two creatives
 * are not pushed together or apart by chance.
 */
function sampleJitter(key: string, slot: number): number {
  const draws = Array.from({ length: SAMPLES_PER_EVALUATION }, (_, i) => unitHash(`${key}|${i}`) * 2 - 1);
  const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
  const centred = draws.map((d) => d - mean);
  const peak = Math.max(...centred.map(Math.abs));
  const scale = peak > 1 ? 1 / peak : 1;
  return centred[slot % SAMPLES_PER_EVALUATION]! * scale * SAMPLE_JITTER;
}

/**
 * Per-voter jitter and a small primacy bonus decide close calls, so order effects show in a
 * panel but never overturn a clear difference. An exact tie goes by the hashes, which
 * swap with the presentation order.
 */
function pickWinner(a: Assessment, b: Assessment, hashA: string, hashB: string, jitter: (hash: string) => number): 1 | 2 {
  const first = a.rawQ + jitter(hashA) + FIRST_POSITION_BONUS;
  const second = b.rawQ + jitter(hashB);
  if (first !== second) return first > second ? 1 : 2;
  return hashA < hashB ? 1 : 2;
}
