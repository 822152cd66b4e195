import { describe, expect, it } from "vitest";
import { kendallTauB, seededRandom } from "../src/index.ts";

/** The O(n^2) definition: sum of sign products over pairs, over sqrt of the pairs untied in x times those untied in y. */
function bruteForceTauB(x: number[], y: number[]): number | null {
  let sum = 0;
  let xUntied = 0;
  let yUntied = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const sx = Math.sign(x[i]! - x[j]!);
      const sy = Math.sign(y[i]! - y[j]!);
      sum += sx * sy;
      if (sx !== 0) xUntied++;
      if (sy !== 0) yUntied++;
    }
  }
  return xUntied === 0 || yUntied === 0 ? null : sum / Math.sqrt(xUntied * yUntied);
}

describe("kendallTauB", () => {
  it("without ties is (C - D) / (n (n - 1) / 2)", () => {
    // x = 1..5, y = 3 4 1 2 5. Pairs (i<j) by y: 3<4 C, 3>1 D, 3>2 D, 3<5 C, 4>1 D, 4>2 D,
    // 4<5 C, 1<2 C, 1<5 C, 2<5 C: C = 6, D = 4, tau = 2 / 10 = 0.2.
    expect(kendallTauB([1, 2, 3, 4, 5], [3, 4, 1, 2, 5])).toBeCloseTo(0.2, 12);
  });

  it("corrects for ties in both variables (the scipy documentation example)", () => {
    // x = 12 2 1 12 2, y = 1 4 7 1 0; 10 pairs (0-based indices):
    // (0,1) 12>2, 1<4 D   (0,2) 12>1, 1<7 D   (0,3) tied in x and y   (0,4) 12>2, 1>0 C
    // (1,2) 2>1, 4<7 D    (1,3) 2<12, 4>1 D   (1,4) tied in x         (2,3) 1<12, 7>1 D
    // (2,4) 1<2, 7>0 D    (3,4) 12>2, 1>0 C
    // C = 2, D = 6; x ties n1 = 2 ((0,3), (1,4)), y ties n2 = 1 ((0,3)).
    // tau-b = (2 - 6) / sqrt((10 - 2) (10 - 1)) = -4 / sqrt(72) ≈ -0.47140452079103173.
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-4 / Math.sqrt(72), 12);
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 12);
  });

  it("reaches 1 with ties where tau-a could not", () => {
    // x = 1 1 2 3, y = 1 2 2 3: (0,1) x tie, (1,2) y tie, the other 4 pairs concordant.
    // tau-b = 4 / sqrt((6 - 1) (6 - 1)) = 0.8; tau-a would be 4 / 6.
    expect(kendallTauB([1, 1, 2, 3], [1, 2, 2, 3])).toBeCloseTo(0.8, 12);
    // Same ties on both sides in the same places: a perfect association, 1 (tau-a: 5 / 6).
    expect(kendallTauB([1, 1, 2, 3], [5, 5, 6, 9])).toBeCloseTo(1, 12);
  });

  it("is null when undefined", () => {
    expect(kendallTauB([], [])).toBeNull();
    expect(kendallTauB([1], [1])).toBeNull();
    expect(kendallTauB([4, 4, 4], [1, 2, 3])).toBeNull();
    expect(kendallTauB([1, 2, 3], [0, 0, 0])).toBeNull();
  });

  it("agrees with the O(n^2) definition on seeded random data with many ties", () => {
    const random = seededRandom(42);
    for (let run = 0; run < 200; run++) {
      const n = 2 + Math.floor(random() * 80);
      // Few distinct values on each side: most pairs tie somewhere, also jointly.
      const xLevels = 1 + Math.floor(random() * 6);
      const yLevels = 1 + Math.floor(random() * 6);
      const x = Array.from({ length: n }, () => Math.floor(random() * xLevels));
      const y = Array.from({ length: n }, (_, i) => Math.floor(random() * yLevels) + (random() < 0.5 ? x[i]! : 0));
      const expected = bruteForceTauB(x, y);
      const got = kendallTauB(x, y);
      if (expected === null) expect(got).toBeNull();
      else expect(got).toBeCloseTo(expected, 12);
    }
  });

  it("agrees with the O(n^2) definition on 2,000 continuous values", () => {
    const random = seededRandom(7);
    const x = Array.from({ length: 2_000 }, () => random());
    const y = x.map((v) => v + random() - 0.5);
    expect(kendallTauB(x, y)).toBeCloseTo(bruteForceTauB(x, y)!, 12);
  });
});
