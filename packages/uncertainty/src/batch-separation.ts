import { sampleMean, sumOfSquaredDeviations } from "./sample-moments.ts";
import { fDistributionSurvival } from "./special/f-distribution-survival.ts";

/** A batch whose separation test gives a p-value above this is "not separated". */
export const BATCH_SEPARATION_ALPHA = 0.05;

/** The one-way ANOVA F test of a batch's repetition scores. */
export interface BatchSeparation {
  /** Between-asset mean square over pooled within-asset variance. */
  f: number;
  /** Between-asset degrees of freedom: assets − 1. */
  df1: number;
  /** Within-asset degrees of freedom: Σ (nᵢ − 1). */
  df2: number;
  /** P(F ≥ f) if every asset had the same true mean. */
  pValue: number;
}

/**
 * The one-way ANOVA F test of "every asset in the batch has the same true mean score", on
 * each asset's repetition scores.
 *
 * Formula: with k assets, nᵢ repetitions and mean mᵢ each, N = Σ nᵢ and m̄ the grand mean
 * over all N repetitions,
 *   F = [Σᵢ nᵢ(mᵢ − m̄)² / (k − 1)] / s²,  s² = Σᵢ Σᵣ (x_ir − mᵢ)² / (N − k),
 *   df1 = k − 1, df2 = N − k, pValue = P(F(df1, df2) ≥ F).
 * When s² is 0 (no repetition moved): pValue 0 (F = ∞) if any mean differs, 1 (F = 0) if
 * all are equal. Assets without repetitions are left out.
 *
 * Returns null with fewer than 2 assets or df2 = 0 (no asset repeated).
 *
 * @example
 * batchSeparation([[1, 2, 3], [4, 5, 6]]); // F = 13.5 / 1 with (1, 4) df
 */
export function batchSeparation(assets: readonly (readonly number[])[]): BatchSeparation | null {
  const scored = assets.filter((repetitions) => repetitions.length > 0);
  const k = scored.length;
  const total = scored.reduce((sum, repetitions) => sum + repetitions.length, 0);
  const df1 = k - 1;
  const df2 = total - k;
  if (k < 2 || df2 === 0) return null;
  const means = scored.map(sampleMean);
  const grandMean = sampleMean(scored.flat());
  let between = 0;
  let within = 0;
  scored.forEach((repetitions, i) => {
    between += repetitions.length * (means[i]! - grandMean) ** 2;
    within += sumOfSquaredDeviations(repetitions);
  });
  if (within === 0) {
    const allEqual = means.every((mean) => mean === means[0]);
    return allEqual ? { f: 0, df1, df2, pValue: 1 } : { f: Number.POSITIVE_INFINITY, df1, df2, pValue: 0 };
  }
  const f = between / df1 / (within / df2);
  return { f, df1, df2, pValue: fDistributionSurvival(f, df1, df2) };
}

/**
 * Whether the batch's scores cannot tell its assets apart: the separation test ran and its
 * p-value is above BATCH_SEPARATION_ALPHA. False when the test cannot run (null).
 *
 * @example
 * batchNotSeparated([[1, 2, 3], [1.5, 2.5, 3.5]]); // true
 */
export function batchNotSeparated(assets: readonly (readonly number[])[]): boolean {
  const result = batchSeparation(assets);
  return result !== null && result.pValue > BATCH_SEPARATION_ALPHA;
}
