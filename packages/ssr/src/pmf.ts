import { SsrInputError } from "./ssr-input-error.ts";

/** Points on the Likert scale: anchor statements and pmf entries are levels 1..5 in order. */
export const LEVELS = 5;

export interface PmfOptions {
  /**
   * Mass given to the least similar anchor so no level is ever exactly 0 (default 0, as in
   * the paper). When several anchors tie for least similar, the first of them receives it.
   */
  epsilon?: number;
  /**
   * Temperature as in the reference implementation: p ∝ p^(1/T), renormalized. T = 1 leaves
   * the pmf alone, T < 1 sharpens it, T > 1 flattens it. T = 0 is the limit: all mass on the
   * most likely level, shared equally when levels tie (so a uniform pmf stays uniform).
   */
  temperature?: number;
}

/**
 * Semantic-similarity rating: an answer's cosine similarities to the 5 anchor statements
 * of one reference set become a probability mass over the Likert levels.
 *
 *   g_r = (1 + c_r) / 2
 *   p_r = (g_r − min g + ε·[r = argmin]) / (Σ g − 5·min g + ε)
 *
 * When every similarity is equal the answer favours no level and the pmf is uniform. With
 * ε = 0 the formula would be 0/0; with ε > 0 it would put all mass on level 1 (the first
 * "least similar" anchor), scoring an empty answer as the harshest one, so uniform it is.
 *
 * @example
 * pmfFromSimilarities([0, 0.2, 0.4, 0.6, 0.8]); // [0, 0.1, 0.2, 0.3, 0.4]
 */
export function pmfFromSimilarities(cosines: readonly number[], options: PmfOptions = {}): number[] {
  const { epsilon = 0, temperature = 1 } = options;
  if (cosines.length !== LEVELS) throw new SsrInputError(`expected ${LEVELS} similarities, got ${cosines.length}`);
  if (cosines.some((c) => !Number.isFinite(c))) throw new SsrInputError("similarities must be finite numbers");
  if (!(epsilon >= 0) || !Number.isFinite(epsilon)) throw new SsrInputError("epsilon must be a finite number >= 0");
  if (!(temperature >= 0) || !Number.isFinite(temperature)) throw new SsrInputError("temperature must be a finite number >= 0");

  const g = cosines.map((c) => (1 + c) / 2);
  const min = Math.min(...g);
  // indexOf finds the first of tied minima: that one alone gets epsilon.
  const argmin = g.indexOf(min);
  const numerators = g.map((v, r) => v - min + (r === argmin ? epsilon : 0));
  // Σ numerators is the formula's denominator, Σ g − 5·min g + ε; summing the numerators
  // themselves keeps the pmf summing to 1 when near-equal similarities lose digits.
  const denominator = numerators.reduce((a, b) => a + b, 0);
  const uninformative = g.every((v) => v === min);
  const pmf = uninformative || !(denominator > 0) ? uniformPmf() : numerators.map((n) => n / denominator);
  return withTemperature(pmf, temperature);
}

export function uniformPmf(): number[] {
  return Array.from({ length: LEVELS }, () => 1 / LEVELS);
}

function withTemperature(pmf: number[], temperature: number): number[] {
  if (temperature === 1) return pmf;
  const top = Math.max(...pmf);
  if (temperature === 0) {
    const tops = pmf.filter((p) => p === top).length;
    return pmf.map((p) => (p === top ? 1 / tops : 0));
  }
  // Relative to the top level so small temperatures do not underflow every entry to 0.
  const scaled = pmf.map((p) => (p / top) ** (1 / temperature));
  const sum = scaled.reduce((a, b) => a + b, 0);
  return scaled.map((p) => p / sum);
}

/**
 * The expected Likert level: Σ r·p_r for r = 1..5.
 *
 * @example
 * scoreFromPmf([0.2, 0.2, 0.2, 0.2, 0.2]); // 3
 */
export function scoreFromPmf(pmf: readonly number[]): number {
  if (pmf.length !== LEVELS) throw new SsrInputError(`expected ${LEVELS} probabilities, got ${pmf.length}`);
  return pmf.reduce((sum, p, i) => sum + (i + 1) * p, 0);
}
