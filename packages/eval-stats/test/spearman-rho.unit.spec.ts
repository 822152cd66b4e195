import { describe, expect, it } from "vitest";
import { spearmanRho } from "../src/index.ts";

describe("spearmanRho", () => {
  it("says exactly 1 or -1 for a perfect order, never a rounding step off it", () => {
    for (let n = 2; n <= 40; n++) {
      const x = Array.from({ length: n }, (_, i) => i * 0.37 + 1);
      expect(spearmanRho(x, x.map((v) => v * 3 - 2))).toBe(1);
      expect(spearmanRho(x, x.map((v) => -v))).toBe(-1);
    }
    // The nearest value to 1 that is not 1, for 200 pairs (one adjacent swap), is kept as it is.
    const x = Array.from({ length: 200 }, (_, i) => i);
    const y = [...x];
    [y[0], y[1]] = [y[1]!, y[0]!];
    expect(spearmanRho(x, y)).toBeCloseTo(1 - 12 / (200 * (200 ** 2 - 1)), 15);
    expect(spearmanRho(x, y)).toBeLessThan(1);
  });

  it("without ties equals 1 - 6 sum(d^2) / (n (n^2 - 1))", () => {
    // Ranks of x: 1 2 3 4 5; of y: 2 1 4 3 5; d = -1 1 -1 1 0, sum d^2 = 4.
    // rho = 1 - 6 * 4 / (5 * 24) = 0.8
    expect(spearmanRho([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
  });

  it("matches the textbook IQ / hours of TV example (rho = -29/165)", () => {
    // Wikipedia, "Spearman's rank correlation coefficient", worked example: sum d^2 = 194,
    // rho = 1 - 6 * 194 / (10 * 99) = -174 / 990 = -29 / 165 ≈ -0.175757...
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tvHours = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    expect(spearmanRho(iq, tvHours)).toBeCloseTo(-29 / 165, 12);
  });

  it("gives tied values their midrank (Pearson on midranks, not the no-ties formula)", () => {
    // x = 1 2 2 3 -> ranks 1 2.5 2.5 4; y = 1 3 2 4 -> ranks 1 3 2 4. Centred (mean 2.5):
    // x: -1.5 0 0 1.5, y: -1.5 0.5 -0.5 1.5; sum xy = 4.5, sum xx = 4.5, sum yy = 5.
    // rho = 4.5 / sqrt(4.5 * 5) = sqrt(0.9) = 3 / sqrt(10) ≈ 0.9486832980505138.
    // (The no-ties formula would say 1 - 6 * 0.5 / 60 = 0.95: ties must not be ignored.)
    expect(spearmanRho([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(3 / Math.sqrt(10), 12);
    expect(spearmanRho([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(0.9486832980505138, 12);
  });

  it("does not depend on the order the pairs are listed in, ties included", () => {
    const x = [3, 1, 2, 2, 5, 5, 4];
    const y = [1, 1, 2, 3, 3, 9, 0];
    const order = [6, 2, 0, 5, 1, 4, 3];
    expect(spearmanRho(order.map((i) => x[i]!), order.map((i) => y[i]!))).toBeCloseTo(spearmanRho(x, y)!, 12);
  });

  it("is 1 and -1 for monotone data, also when non-linear", () => {
    expect(spearmanRho([1, 2, 3, 4], [1, 8, 27, 64])).toBe(1);
    expect(spearmanRho([1, 2, 3, 4], [10, 5, 0, -100])).toBe(-1);
  });

  it("is null when undefined: fewer than two pairs, or a side without variance", () => {
    expect(spearmanRho([], [])).toBeNull();
    expect(spearmanRho([1], [2])).toBeNull();
    expect(spearmanRho([2, 2, 2], [1, 2, 3])).toBeNull();
    expect(spearmanRho([1, 2, 3], [7, 7, 7])).toBeNull();
  });

  it("refuses unpaired or non-finite input", () => {
    expect(() => spearmanRho([1, 2], [1])).toThrow(RangeError);
    expect(() => spearmanRho([1, Number.NaN], [1, 2])).toThrow(/finite/);
  });
});
