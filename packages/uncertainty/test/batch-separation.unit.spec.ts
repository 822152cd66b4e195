import { describe, expect, it } from "vitest";
import { BATCH_SEPARATION_ALPHA, batchNotSeparated, batchSeparation } from "../src/index.ts";

describe("batchSeparation", () => {
  it("computes the one-way ANOVA F and its p-value by hand", () => {
    // Means 2, 5, 8, grand mean 5: between = 3·9 + 0 + 3·9 = 54 over 2 df → 27.
    // Within: 2 + 2 + 2 = 6 over 9 − 3 = 6 df → s² = 1. F = 27.
    // With df1 = 2, P(F ≥ f) = (1 + 2f/df2)^(−df2/2) = (1 + 9)^(−3) = 0.001.
    const result = batchSeparation([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 9],
    ])!;
    expect(result.f).toBeCloseTo(27, 10);
    expect(result.df1).toBe(2);
    expect(result.df2).toBe(6);
    expect(result.pValue).toBeCloseTo(0.001, 12);
  });

  it("weights each asset's mean by its repetitions and leaves assets without scores out", () => {
    // Means 1, 2, 6 from two repetitions each, grand 3: between 2·(4 + 1 + 9) = 28 over 2 df → 14.
    // Within 2 + 2 + 2 = 6 over 3 df → 2. F = 7, P = (1 + 14/3)^(−1.5) = (17/3)^(−1.5).
    const result = batchSeparation([[0, 2], [1, 3], [], [5, 7]])!;
    expect(result).toMatchObject({ df1: 2, df2: 3 });
    expect(result.f).toBeCloseTo(7, 10);
    expect(result.pValue).toBeCloseTo((17 / 3) ** -1.5, 12);
  });

  it("is null with fewer than two assets or when no asset was repeated", () => {
    expect(batchSeparation([[1, 2, 3]])).toBeNull();
    expect(batchSeparation([[1], [2], [3]])).toBeNull();
    expect(batchSeparation([])).toBeNull();
  });

  it("decides by the means alone when no repetition moved", () => {
    expect(batchSeparation([[1, 1], [2, 2]])).toEqual({ f: Number.POSITIVE_INFINITY, df1: 1, df2: 2, pValue: 0 });
    // 0.1 three times and twice: means must come out exactly equal, not one rounding apart.
    expect(batchSeparation([[0.1, 0.1, 0.1], [0.1, 0.1]])).toEqual({ f: 0, df1: 1, df2: 3, pValue: 1 });
  });
});

describe("batchNotSeparated", () => {
  it("flags a batch whose means sit within the noise, not one whose means stand apart", () => {
    expect(BATCH_SEPARATION_ALPHA).toBe(0.05);
    // Means 2 and 2.5, s² = 1: F = 3·0.0625·2 / 1 = 0.375, far from significant.
    expect(batchNotSeparated([[1, 2, 3], [1.5, 2.5, 3.5]])).toBe(true);
    expect(batchNotSeparated([[1, 2, 3], [4, 5, 6], [7, 8, 9]])).toBe(false);
  });

  it("does not flag a batch the test cannot run on", () => {
    expect(batchNotSeparated([[1, 2, 3]])).toBe(false);
  });
});
