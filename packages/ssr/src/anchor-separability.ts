import { SsrInputError } from "./ssr-input-error.ts";

/**
 * How alike an embedder finds a set of vectors: the mean cosine similarity over all
 * unordered pairs. Applied to the five anchors of a reference set, it says how well the
 * embedder separates the levels: near 1, every answer looks equally like every level and the
 * pmf flattens towards uniform. Norms are computed, not assumed, since not every embedder
 * returns unit vectors.
 *
 * Refuses fewer than 2 vectors (no pair), vectors of different lengths, a zero vector (no
 * direction, so no cosine) and non-finite entries: each is a caller's bug, not a measurement.
 *
 * @example
 * meanPairwiseCosine([[1, 0], [0, 2], [3, 3]]); // (0 + 0.7071… + 0.7071…) / 3 = 0.4714…
 */
export function meanPairwiseCosine(vectors: readonly (readonly number[])[]): number {
  if (vectors.length < 2) throw new SsrInputError(`mean pairwise cosine needs at least 2 vectors, got ${vectors.length}`);
  const length = vectors[0]!.length;
  const norms = vectors.map((v, i) => {
    if (v.length !== length) throw new SsrInputError(`vector ${i} has length ${v.length}, vector 0 has ${length}`);
    let sq = 0;
    for (const x of v) {
      if (!Number.isFinite(x)) throw new SsrInputError(`vector ${i} holds a non-finite number (${x})`);
      sq += x * x;
    }
    if (sq === 0) throw new SsrInputError(`vector ${i} is a zero vector: it has no direction to compare`);
    return Math.sqrt(sq);
  });

  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < vectors.length; i++) {
    for (let j = i + 1; j < vectors.length; j++) {
      const [a, b] = [vectors[i]!, vectors[j]!];
      let dot = 0;
      for (let k = 0; k < length; k++) dot += a[k]! * b[k]!;
      // Rounding can push a near-parallel pair just past ±1.
      sum += Math.min(1, Math.max(-1, dot / (norms[i]! * norms[j]!)));
      pairs++;
    }
  }
  return sum / pairs;
}
