import { sumOfSquaredDeviations } from "./sample-moments.ts";

/** How much one asset's score moves between repetitions, pooled over a batch. */
export interface RepetitionNoise {
  /** Pooled within-asset standard deviation of one repetition's score; 0 when df is 0. */
  sd: number;
  /** Degrees of freedom behind `sd`: Σ (nᵢ − 1). 0 means the noise is unknown. */
  df: number;
}

/**
 * The pooled within-asset standard deviation of repetition scores across a batch.
 *
 * Formula: s² = Σᵢ Σᵣ (x_ir − mᵢ)² / Σᵢ (nᵢ − 1), df = Σᵢ (nᵢ − 1), with mᵢ the mean of
 * asset i's nᵢ repetitions. Assets with fewer than 2 repetitions contribute nothing.
 *
 * When df is 0 (no asset was repeated) the noise is unknown and the answer is
 * { sd: 0, df: 0 }: read df 0 as "unknown", never as "no noise".
 *
 * @example
 * repetitionNoise([[1, 2, 3], [5, 7]]); // s² = (2 + 2) / 3 → { sd: √(4/3), df: 3 }
 */
export function repetitionNoise(assets: readonly (readonly number[])[]): RepetitionNoise {
  let squares = 0;
  let df = 0;
  for (const repetitions of assets) {
    if (repetitions.length < 2) continue;
    squares += sumOfSquaredDeviations(repetitions);
    df += repetitions.length - 1;
  }
  if (df === 0) return { sd: 0, df: 0 };
  return { sd: Math.sqrt(squares / df), df };
}
