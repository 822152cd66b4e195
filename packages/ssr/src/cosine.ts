import { SsrInputError } from "./ssr-input-error.ts";

/**
 * Cosine similarity of two vectors; 0 when either has no length, so an empty answer matches
 * no anchor better than another (and its pmf comes out uniform).
 *
 * @example
 * cosineSimilarity([1, 0], [1, 1]); // 0.7071…
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new SsrInputError(`vectors differ in length (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return 0;
  // Rounding can push a near-parallel pair just past ±1.
  return Math.min(1, Math.max(-1, dot / Math.sqrt(na * nb)));
}
