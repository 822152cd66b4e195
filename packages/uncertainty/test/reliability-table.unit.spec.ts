import { describe, expect, it } from "vitest";
import { RELIABILITY_BINS, reliabilityTable, wilsonInterval } from "../src/index.ts";

describe("wilsonInterval", () => {
  it("matches the hand-worked 5 of 10 and 0 of 5", () => {
    // 5/10: z²/n = 0.38415, centre (0.5 + 0.19207)/1.38415 = 0.5,
    // half-width 1.95996/1.38415 · √(0.025 + 3.8415/400) = 1.41600 · 0.186022 = 0.263407.
    const half = wilsonInterval(5, 10);
    expect(half.low).toBeCloseTo(0.236593, 5);
    expect(half.high).toBeCloseTo(0.763407, 5);
    // 0/5: z²/(2n) = 0.384146, centre = half-width = 0.384146 / 1.768292 = 0.217241, so [0, 0.434482].
    const none = wilsonInterval(0, 5);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.434482, 5);
  });
});

describe("reliabilityTable", () => {
  it("returns all five default bins, empty ones with nulls", () => {
    const table = reliabilityTable([]);
    expect(RELIABILITY_BINS).toEqual([0.5, 0.6, 0.7, 0.8, 0.9, 1.0]);
    expect(table.map((bin) => [bin.p_low, bin.p_high])).toEqual([
      [0.5, 0.6],
      [0.6, 0.7],
      [0.7, 0.8],
      [0.8, 0.9],
      [0.9, 1.0],
    ]);
    expect(table[0]).toEqual({ p_low: 0.5, p_high: 0.6, n_pairs: 0, mean_p: null, observed: null, ci_low: null, ci_high: null });
  });

  it("bins half-open except the last, and folds p below ½ to 1 − p with the outcome negated", () => {
    const table = reliabilityTable([
      { p: 0.6, orderedRight: true }, // lower edge belongs to [0.6, 0.7)
      { p: 0.65, orderedRight: false },
      { p: 0.3, orderedRight: false }, // folds to 0.7 and "right": the lower item was favoured and was above
      { p: 1, orderedRight: true }, // the last bin includes 1
      { p: 0.5, orderedRight: false },
    ]);
    expect(table.map((bin) => bin.n_pairs)).toEqual([1, 2, 1, 0, 1]);
    expect(table[1]!.mean_p).toBeCloseTo(0.625, 12);
    expect(table[1]!.observed).toBe(0.5);
    expect(table[2]).toMatchObject({ n_pairs: 1, observed: 1 });
    expect(table[2]!.mean_p).toBeCloseTo(0.7, 12);
    expect(table[0]).toMatchObject({ mean_p: 0.5, observed: 0 });
    const interval = wilsonInterval(1, 2);
    expect(table[1]).toMatchObject({ ci_low: interval.low, ci_high: interval.high });
  });

  it("takes other bin edges and leaves out pairs outside them", () => {
    const table = reliabilityTable(
      [
        { p: 0.55, orderedRight: true },
        { p: 0.95, orderedRight: true },
        { p: Number.NaN, orderedRight: true },
      ],
      [0.5, 0.75, 0.9],
    );
    expect(table.map((bin) => bin.n_pairs)).toEqual([1, 0]);
  });
});
