import { describe, expect, it } from "vitest";
import {
  aboveNextProbability,
  combineIndependentEvidence,
  panelPreferenceProbability,
  scoreOrderProbability,
  TOO_CLOSE_HIGH,
  TOO_CLOSE_LOW,
  tooCloseToCall,
} from "../src/index.ts";

// T_2(1) = ½ + 1/(2√3): the t CDF with 2 df is ½ + t/(2√(t² + 2)).
const T2_AT_1 = 0.5 + 1 / (2 * Math.sqrt(3));

describe("scoreOrderProbability", () => {
  it("is T_df of the difference over its standard error sd·√(2/n)", () => {
    // n = 2: standard error 1·√(2/2) = 1, difference 1 → t = 1 with 2 df.
    expect(scoreOrderProbability(7, 6, { sd: 1, df: 2 }, 2)).toBeCloseTo(T2_AT_1, 12);
    // Default n = 3: a difference of √(2/3) is again t = 1.
    expect(scoreOrderProbability(6 + Math.sqrt(2 / 3), 6, { sd: 1, df: 2 })).toBeCloseTo(T2_AT_1, 12);
    // Swapping the pair gives the complement; equal means give ½.
    expect(scoreOrderProbability(6, 7, { sd: 1, df: 2 }, 2)).toBeCloseTo(1 - T2_AT_1, 12);
    expect(scoreOrderProbability(6, 6, { sd: 1, df: 2 })).toBe(0.5);
  });

  it("grows more sure with more repetitions behind each mean", () => {
    const fromThree = scoreOrderProbability(7, 6, { sd: 2, df: 8 }, 3)!;
    const fromTen = scoreOrderProbability(7, 6, { sd: 2, df: 8 }, 10)!;
    expect(fromTen).toBeGreaterThan(fromThree);
  });

  it("is null when the noise is unknown (df 0) and certain when it was measured as none", () => {
    expect(scoreOrderProbability(7, 6, { sd: 0, df: 0 })).toBeNull();
    expect(scoreOrderProbability(7, 6, { sd: 0, df: 4 })).toBe(1);
    expect(scoreOrderProbability(6, 7, { sd: 0, df: 4 })).toBe(0);
    expect(scoreOrderProbability(6, 6, { sd: 0, df: 4 })).toBe(0.5);
  });

  it("rejects a non-finite mean, a non-positive n and a negative noise", () => {
    expect(() => scoreOrderProbability(Number.NaN, 6, { sd: 1, df: 2 })).toThrow(RangeError);
    expect(() => scoreOrderProbability(7, 6, { sd: 1, df: 2 }, 0)).toThrow(RangeError);
    expect(() => scoreOrderProbability(7, 6, { sd: -1, df: 2 })).toThrow(RangeError);
  });
});

describe("panelPreferenceProbability", () => {
  // P(θ > ½) under Beta(1 + k, 1 + m) equals P(Binomial(k + m + 1, ½) ≤ k), since
  // P(Beta(a, b) ≤ x) = P(Binomial(a + b − 1, x) ≥ a). With 5 votes that is a count out of 2⁶ = 64.
  it("matches the hand-worked splits of five votes", () => {
    // 4 vs 1: P(Bin(6, ½) ≤ 4) = 1 − (6 + 1)/64 = 57/64.
    expect(panelPreferenceProbability(4, 1)).toBeCloseTo(57 / 64, 12);
    expect(panelPreferenceProbability(4, 1)).toBeCloseTo(0.890625, 12);
    // 3 vs 2: P(Bin(6, ½) ≤ 3) = (1 + 6 + 15 + 20)/64 = 42/64.
    expect(panelPreferenceProbability(3, 2)).toBeCloseTo(42 / 64, 12);
    // 5 vs 0: P(Bin(6, ½) ≤ 5) = 1 − 1/64 = 63/64.
    expect(panelPreferenceProbability(5, 0)).toBeCloseTo(63 / 64, 12);
  });

  it("is ½ without votes and complements itself when the pair is read the other way", () => {
    expect(panelPreferenceProbability(0, 0)).toBeCloseTo(0.5, 12);
    expect(panelPreferenceProbability(1, 4)).toBeCloseTo(7 / 64, 12);
    expect(panelPreferenceProbability(9, 4) + panelPreferenceProbability(4, 9)).toBeCloseTo(1, 12);
  });

  it("rejects negative counts", () => {
    expect(() => panelPreferenceProbability(-1, 3)).toThrow(RangeError);
  });
});

describe("combineIndependentEvidence", () => {
  it("multiplies the odds", () => {
    // Odds 3 and 3 → 9 → 9/10.
    expect(combineIndependentEvidence(0.75, 0.75)).toBeCloseTo(0.9, 12);
    // ½ is odds 1: no evidence, the other side stands.
    expect(combineIndependentEvidence(0.8, 0.5)).toBeCloseTo(0.8, 12);
    // Odds 9 and 1/9 cancel.
    expect(combineIndependentEvidence(0.9, 0.1)).toBeCloseTo(0.5, 12);
  });

  it("keeps a certainty unless the other side is certain of the opposite, which gives ½", () => {
    expect(combineIndependentEvidence(1, 0.3)).toBe(1);
    expect(combineIndependentEvidence(0.3, 0)).toBe(0);
    expect(combineIndependentEvidence(1, 0)).toBe(0.5);
    expect(combineIndependentEvidence(0, 1)).toBe(0.5);
  });

  it("rejects numbers that are not probabilities", () => {
    expect(() => combineIndependentEvidence(1.2, 0.5)).toThrow(RangeError);
    expect(() => combineIndependentEvidence(0.5, Number.NaN)).toThrow(RangeError);
  });
});

describe("aboveNextProbability", () => {
  const noise = { sd: 1, df: 2 };

  it("is the score part alone without a panel, or with a panel of no votes", () => {
    expect(aboveNextProbability({ upperMean: 7, lowerMean: 6, noise, repetitions: 2 })).toBeCloseTo(T2_AT_1, 12);
    expect(aboveNextProbability({ upperMean: 7, lowerMean: 6, noise, repetitions: 2, panel: { forUpper: 0, forLower: 0 } })).toBeCloseTo(T2_AT_1, 12);
  });

  it("combines the score part with the panel's as independent evidence", () => {
    // Score odds: (½ + 1/(2√3)) / (½ − 1/(2√3)) = (√3 + 1)/(√3 − 1) = 2 + √3.
    // Panel 3 vs 2: 42/64, odds 42/22 = 21/11. Combined odds 21(2 + √3)/11.
    const odds = (21 * (2 + Math.sqrt(3))) / 11;
    expect(aboveNextProbability({ upperMean: 7, lowerMean: 6, noise, repetitions: 2, panel: { forUpper: 3, forLower: 2 } })).toBeCloseTo(odds / (1 + odds), 12);
    // Equal scores carry odds 1, so the panel decides: 4 vs 1 → 57/64.
    expect(aboveNextProbability({ upperMean: 6, lowerMean: 6, noise, panel: { forUpper: 4, forLower: 1 } })).toBeCloseTo(57 / 64, 12);
  });

  it("falls back to the panel when the noise is unknown, and is null when nothing is known", () => {
    const unknown = { sd: 0, df: 0 };
    expect(aboveNextProbability({ upperMean: 7, lowerMean: 6, noise: unknown, panel: { forUpper: 4, forLower: 1 } })).toBeCloseTo(57 / 64, 12);
    expect(aboveNextProbability({ upperMean: 7, lowerMean: 6, noise: unknown })).toBeNull();
    expect(aboveNextProbability({ upperMean: 7, lowerMean: 6, noise: unknown, panel: null })).toBeNull();
  });

  it("rejects negative panel votes instead of reading them as no panel", () => {
    expect(() => aboveNextProbability({ upperMean: 7, lowerMean: 6, noise, panel: { forUpper: -1, forLower: 0 } })).toThrow(RangeError);
  });
});

describe("tooCloseToCall", () => {
  it("calls 0.4 to 0.6, both included, too close, and nothing else", () => {
    expect([TOO_CLOSE_LOW, TOO_CLOSE_HIGH]).toEqual([0.4, 0.6]);
    expect(tooCloseToCall(0.4)).toBe(true);
    expect(tooCloseToCall(0.5)).toBe(true);
    expect(tooCloseToCall(0.6)).toBe(true);
    expect(tooCloseToCall(0.3999)).toBe(false);
    expect(tooCloseToCall(0.6001)).toBe(false);
    expect(tooCloseToCall(null)).toBe(false);
  });
});
