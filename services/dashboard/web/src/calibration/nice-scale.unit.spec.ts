import { describe, expect, it } from "vitest";
import { niceScale } from "./nice-scale.ts";

describe("niceScale", () => {
  it("puts ticks on round steps that cover the values", () => {
    expect(niceScale([0.0185, 0.0354])).toEqual({ domain: [0.015, 0.04], ticks: [0.015, 0.02, 0.025, 0.03, 0.035, 0.04] });
    expect(niceScale([3.92, 4.49])).toEqual({ domain: [3.8, 4.6], ticks: [3.8, 4, 4.2, 4.4, 4.6] });
    expect(niceScale([1, 5])).toEqual({ domain: [1, 5], ticks: [1, 2, 3, 4, 5] });
    expect(niceScale([-3, 12])).toEqual({ domain: [-5, 15], ticks: [-5, 0, 5, 10, 15] });
  });

  it("gives one value or none a range around it", () => {
    expect(niceScale([2])).toEqual({ domain: [1.8, 2.2], ticks: [1.8, 1.9, 2, 2.1, 2.2] });
    expect(niceScale([0]).ticks).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(niceScale([]).domain).toEqual([0, 1]);
  });

  it("keeps every value inside the domain", () => {
    for (const values of [[0.001, 0.0013], [120, 98_000], [0.2, 0.21, 0.29]]) {
      const { domain } = niceScale(values);
      expect(domain[0]).toBeLessThanOrEqual(Math.min(...values));
      expect(domain[1]).toBeGreaterThanOrEqual(Math.max(...values));
    }
  });
});
