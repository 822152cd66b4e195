import { ModelError } from "../model-error.ts";
import type { Embedder } from "../types.ts";
import { BoundedCache } from "./bounded-cache.ts";
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

/** FNV-1a states after the feature prefixes "u:" and "b:": a feature is hashed without building its string. */
const UNIGRAM = fnv1a32("u:");
const BIGRAM = fnv1a32("b:");
const SPACE = " ";

function addFeature(vector: number[], h: number, weight: number): void {
  // Signed hashing: collisions cancel on average instead of piling up.
  vector[h % HASHED_DIMENSIONS]! += (h & 0x80000000 ? -1 : 1) * weight;
}

/** Divides `values[from..to)` by its L2 norm, summing in index order. */
function normalize(values: number[], from = 0, to = values.length): void {
  let norm = 0;
  for (let i = from; i < to; i++) norm += values[i]! * values[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = from; i < to; i++) values[i]! /= norm;
}

function embed(text: string): number[] {
  // A plain array of doubles: the same arithmetic as a Float64Array, without converting it to hand out.
  const vector: number[] = new Array<number>(SIM_EMBEDDING_DIMENSIONS).fill(0);
  // Grading words ("probably", "not", "unlikely") are read by the stance block alone: in the
  // hashed block they would pull an answer towards every anchor that shares its wording.
  // String(): for "constructor" stanceTokens yields a non-string, whose feature is its string form.
  const topical = stanceTokens(text)
    .filter((t) => !isStanceWord(t))
    .map(String);
  for (let i = 0; i < topical.length; i++) {
    const token = topical[i]!;
    addFeature(vector, fnv1a32(token, UNIGRAM), STOPWORDS.has(token) ? 0.25 : 1);
    const next = topical[i + 1];
    if (next !== undefined) addFeature(vector, fnv1a32(next, fnv1a32(SPACE, fnv1a32(token, BIGRAM))), 1);
  }
  normalize(vector, 0, HASHED_DIMENSIONS);

  const { value, clauses } = textStance(text);
  if (clauses > 0) {
    const angle = ((1 - value) / 2) * Math.PI;
    vector[HASHED_DIMENSIONS] = Math.cos(angle) * ARC_WEIGHT;
    vector[HASHED_DIMENSIONS + 1] = Math.sin(angle) * ARC_WEIGHT;
    const radial = HASHED_DIMENSIONS + 2;
    STANCE_CENTRES.forEach((c, i) => (vector[radial + i] = Math.exp(-((value - c) ** 2) / (2 * STANCE_WIDTH ** 2))));
    normalize(vector, radial);
    for (let i = radial; i < vector.length; i++) vector[i]! *= RADIAL_WEIGHT;
  }
  normalize(vector);
  return vector;
}

/**
 * Embeddings by text. Answers repeat (an evaluation's samples, the same wording for similar
 * images) and anchors are embedded again and again; a vector is about 4 KiB, so the cap holds
 * this under 5 MiB.
 */
export const simEmbeddingCache = new BoundedCache<string, readonly number[]>(1024);

/**
 * A deterministic embedding without model weights: feature hashing of unigrams and
 * bigrams, plus a block that places the text's stance on the definitely-not … definitely
 * line (see stance.ts). L2-normalized, so a dot product is the cosine.
 */
export function simEmbedding(text: string): number[] {
  let vector = simEmbeddingCache.get(text);
  if (!vector) {
    vector = embed(text);
    simEmbeddingCache.set(text, vector);
  }
  // A copy: the caller owns what it gets and may change it without touching the cache.
  return vector.slice();
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
