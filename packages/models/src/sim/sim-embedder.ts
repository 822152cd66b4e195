import { ModelError } from "../model-error.ts";
import type { Embedder } from "../types.ts";
import { fnv1a32 } from "./fnv1a.ts";
import { isStanceWord, stanceTokens, textStance } from "./stance.ts";

/** Hashed word and word-pair features. */
export const HASHED_DIMENSIONS = 512;
/** Radial units over the stance line −1..1: near stances activate the same units. */
const STANCE_CENTRES = [-1, -0.5, 0, 0.5, 1];
const STANCE_WIDTH = 0.25;
/**
 * Norms relative to the unit-norm hashed block. The arc places stance −1..1 on a half
 * circle, so similarity keeps falling all the way to the opposite stance (where it is −1);
 * the radial units, weighted most, make similarity to an anchor fall smoothly with the
 * distance in stance. Together they turn an answer's stance into an SSR score that moves
 * nearly linearly with it (against graded anchors about 1.3 at −1, 3 at 0, 4.7 at +1)
 * instead of in steps, while the hashed block, which leaves grading words out, says what
 * the text is about.
 */
const ARC_WEIGHT = 0.3;
const RADIAL_WEIGHT = 3;
export const SIM_EMBEDDING_DIMENSIONS = HASHED_DIMENSIONS + 2 + STANCE_CENTRES.length;

/** Frequent words say little about meaning; they still count, at a quarter weight. */
const STOPWORDS = new Set(["a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "it", "this", "that", "is", "am", "are", "be", "i", "me", "my", "with", "as", "at", "by", "so", "if", "its", "was", "whether"]);

function addFeature(vector: Float64Array, feature: string, weight: number): void {
  const h = fnv1a32(feature);
  // Signed hashing: collisions cancel on average instead of piling up.
  vector[h % HASHED_DIMENSIONS]! += (h & 0x80000000 ? -1 : 1) * weight;
}

function normalize(values: Float64Array): Float64Array {
  let norm = 0;
  for (const v of values) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < values.length; i++) values[i]! /= norm;
  return values;
}

/**
 * A deterministic embedding without model weights: feature hashing of unigrams and
 * bigrams, plus a block that places the text's stance on the definitely-not … definitely
 * line (see stance.ts). L2-normalized, so a dot product is the cosine.
 */
export function simEmbedding(text: string): number[] {
  const tokens = stanceTokens(text);
  const hashed = new Float64Array(HASHED_DIMENSIONS);
  // Grading words ("probably", "not", "unlikely") are read by the stance block alone: in the
  // hashed block they would pull an answer towards every anchor that shares its wording.
  const topical = tokens.filter((t) => !isStanceWord(t));
  topical.forEach((token, i) => {
    addFeature(hashed, `u:${token}`, STOPWORDS.has(token) ? 0.25 : 1);
    const next = topical[i + 1];
    if (next !== undefined) addFeature(hashed, `b:${token} ${next}`, 1);
  });
  normalize(hashed);

  const arc = new Float64Array(2);
  const radial = new Float64Array(STANCE_CENTRES.length);
  const { value, clauses } = textStance(text);
  if (clauses > 0) {
    const angle = ((1 - value) / 2) * Math.PI;
    arc[0] = Math.cos(angle) * ARC_WEIGHT;
    arc[1] = Math.sin(angle) * ARC_WEIGHT;
    STANCE_CENTRES.forEach((c, i) => (radial[i] = Math.exp(-((value - c) ** 2) / (2 * STANCE_WIDTH ** 2))));
    normalize(radial);
    for (let i = 0; i < radial.length; i++) radial[i]! *= RADIAL_WEIGHT;
  }
  return Array.from(normalize(Float64Array.from([...hashed, ...arc, ...radial])));
}

export function createSimEmbedder(model = "sim-embed"): Embedder {
  return {
    provider: "sim",
    model,
    async embed(texts, signal) {
      if (signal?.aborted) throw new ModelError({ provider: "sim", model, kind: "aborted", message: `call to sim model ${model} was cancelled`, cause: signal.reason });
      return texts.map(simEmbedding);
    },
  };
}
