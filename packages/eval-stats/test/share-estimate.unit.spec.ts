import { describe, expect, it } from "vitest";
import { shareEstimate } from "../src/index.ts";

describe("shareEstimate", () => {
  it("is the share of true outcomes with an interval around it", () => {
    // 30 of 40 agree: 0.75; binomial standard error sqrt(0.75 * 0.25 / 40) ≈ 0.068, so the
    // 95 % interval is about 0.75 ± 0.13.
    const outcomes = Array.from({ length: 40 }, (_, i) => i % 4 !== 0);
    const share = shareEstimate(outcomes)!;
    expect(share.value).toBe(0.75);
    expect(share.ci_low).toBeGreaterThan(0.55);
    expect(share.ci_low).toBeLessThan(0.7);
    expect(share.ci_high).toBeGreaterThan(0.8);
    expect(share.ci_high).toBeLessThanOrEqual(0.9);
  });

  it("is reproducible for the same outcomes and seed", () => {
    const outcomes = [true, false, true, true, false, true, true];
    expect(shareEstimate(outcomes)).toEqual(shareEstimate(outcomes));
    expect(shareEstimate(outcomes, { seed: 1 })).toEqual(shareEstimate(outcomes, { seed: 1 }));
  });

  it("has a degenerate interval when every outcome is the same", () => {
    expect(shareEstimate([true, true, true])).toEqual({ value: 1, ci_low: 1, ci_high: 1 });
    expect(shareEstimate([false, false])).toEqual({ value: 0, ci_low: 0, ci_high: 0 });
  });

  it("rounds to 4 decimals", () => {
    // 1 of 3: 0.3333...
    expect(shareEstimate([true, false, false])!.value).toBe(0.3333);
  });

  it("is null without outcomes", () => {
    expect(shareEstimate([])).toBeNull();
  });
});
