import { describe, expect, it } from "vitest";
import { repetitionNoise } from "../src/index.ts";

describe("repetitionNoise", () => {
  it("pools the within-asset spread over Σ(nᵢ − 1) degrees of freedom", () => {
    // [1, 2, 3]: mean 2, squares 1 + 0 + 1 = 2, 2 df. [5, 7]: mean 6, squares 1 + 1 = 2, 1 df.
    // [4] alone says nothing about noise. s² = (2 + 2) / 3.
    expect(repetitionNoise([[1, 2, 3], [5, 7], [4]])).toEqual({ sd: Math.sqrt(4 / 3), df: 3 });
  });

  it("does not let a spread-out single asset's level leak in: only deviations from each asset's own mean count", () => {
    // Same spread as above, assets shifted far apart: the noise must not change.
    expect(repetitionNoise([[1001, 1002, 1003], [-5, -7]]).sd).toBeCloseTo(Math.sqrt(4 / 3), 10);
  });

  it("answers { sd: 0, df: 0 }, noise unknown, when no asset was repeated", () => {
    expect(repetitionNoise([])).toEqual({ sd: 0, df: 0 });
    expect(repetitionNoise([[4], [5], []])).toEqual({ sd: 0, df: 0 });
  });

  it("measures exactly no noise when every repetition repeats its asset's score", () => {
    expect(repetitionNoise([[0.1, 0.1, 0.1], [0.7, 0.7]])).toEqual({ sd: 0, df: 3 });
  });
});
