import { describe, expect, it } from "vitest";
import { winProbability } from "../src/index.ts";

/** ∫ f over [a, b] by composite Simpson's rule with `steps` (even) intervals. */
function integrate(f: (x: number) => number, a: number, b: number, steps = 2000): number {
  const h = (b - a) / steps;
  let sum = f(a) + f(b);
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * f(a + i * h);
  return (sum * h) / 3;
}

describe("winProbability", () => {
  it("answers 4 votes of 5 with mean 5/7, interval ≈ [0.359, 0.957] and p_better 57/64", () => {
    // Posterior Beta(5, 2): density 30x⁴(1 − x), CDF 6x⁵ − 5x⁶ (= P(Bin(6, x) ≥ 5)).
    const win = winProbability(4, 1)!;
    expect(win.value).toBeCloseTo(5 / 7, 12);
    expect(win.ci_low).toBeCloseTo(0.359, 3);
    expect(win.ci_high).toBeCloseTo(0.957, 3);
    expect(win.p_better).toBeCloseTo(0.890625, 12);
    // The ends hold 2.5 % each, checked against the closed-form CDF ...
    const cdf = (x: number) => 6 * x ** 5 - 5 * x ** 6;
    expect(cdf(win.ci_low)).toBeCloseTo(0.025, 9);
    expect(cdf(win.ci_high)).toBeCloseTo(0.975, 9);
    // ... and against numeric integration of the density, which shares no code with either.
    const density = (x: number) => 30 * x ** 4 * (1 - x);
    expect(integrate(density, 0, win.ci_low)).toBeCloseTo(0.025, 9);
    expect(integrate(density, win.ci_high, 1)).toBeCloseTo(0.025, 9);
  });

  it("matches the closed-form interval of a unanimous vote", () => {
    // 5 of 5: Beta(6, 1), CDF x⁶, so the quantiles are 0.025^(1/6) and 0.975^(1/6); mean 6/7.
    const win = winProbability(5, 0)!;
    expect(win.value).toBeCloseTo(6 / 7, 12);
    expect(win.ci_low).toBeCloseTo(0.025 ** (1 / 6), 10);
    expect(win.ci_high).toBeCloseTo(0.975 ** (1 / 6), 10);
    expect(win.p_better).toBeCloseTo(63 / 64, 12);
  });

  it("describes a losing side too: 0 of 3 is Beta(1, 4)", () => {
    // CDF 1 − (1 − x)⁴, so quantile q is 1 − (1 − q)^(1/4); mean 1/5; P(θ > ½) = (½)⁴.
    const win = winProbability(0, 3)!;
    expect(win.value).toBeCloseTo(0.2, 12);
    expect(win.ci_low).toBeCloseTo(1 - 0.975 ** 0.25, 10);
    expect(win.ci_high).toBeCloseTo(1 - 0.025 ** 0.25, 10);
    expect(win.p_better).toBeCloseTo(1 / 16, 12);
  });

  it("is null when nobody voted and rejects negative counts", () => {
    expect(winProbability(0, 0)).toBeNull();
    expect(() => winProbability(-1, 2)).toThrow(RangeError);
  });
});
