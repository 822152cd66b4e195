import { describe, expect, it } from "vitest";
import { shareEstimate } from "../src/index.ts";

const trials = (yes: number, n: number) => Array.from({ length: n }, (_, i) => i < yes);

describe("shareEstimate (95 % Wilson score interval)", () => {
  it("matches Newcombe's worked example: 81 of 263 gives 0.3080 [0.2553, 0.3662]", () => {
    // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
    // method 3 (score interval without continuity correction), r = 81, n = 263.
    expect(shareEstimate(trials(81, 263))).toEqual({ value: 0.308, ci_low: 0.2553, ci_high: 0.3662 });
  });

  it("does not claim certainty when every trial agrees: 10 of 10 gives [0.7225, 1]", () => {
    // centre = (1 + z²/20) / (1 + z²/10) = 1.19207 / 1.38415 = 0.86123;
    // half = z · sqrt(z²/400) / 1.38415 = 1.95996 · 0.09800 / 1.38415 = 0.13877.
    expect(shareEstimate(trials(10, 10))).toEqual({ value: 1, ci_low: 0.7225, ci_high: 1 });
    expect(shareEstimate(trials(0, 10))).toEqual({ value: 0, ci_low: 0, ci_high: 0.2775 });
  });

  it("narrows as trials grow, around the same share", () => {
    const small = shareEstimate(trials(3, 4))!;
    const large = shareEstimate(trials(300, 400))!;
    expect(small).toEqual({ value: 0.75, ci_low: 0.3006, ci_high: 0.9544 });
    expect(large.value).toBe(0.75);
    expect(large.ci_high - large.ci_low).toBeLessThan((small.ci_high - small.ci_low) / 5);
  });

  it("is null without outcomes", () => {
    expect(shareEstimate([])).toBeNull();
  });
});
