import { describe, expect, it } from "vitest";
import { isSsrInputError, meanPairwiseCosine } from "../src/index.ts";

describe("meanPairwiseCosine", () => {
  it("is 1 for vectors pointing the same way, whatever their lengths", () => {
    // [1,2]·[2,4] = 10, |[1,2]|·|[2,4]| = √5·√20 = 10.
    expect(meanPairwiseCosine([[1, 2], [2, 4]])).toBeCloseTo(1, 12);
  });

  it("is 0 for orthogonal vectors and -1 for opposite ones", () => {
    expect(meanPairwiseCosine([[1, 0], [0, 5]])).toBeCloseTo(0, 12);
    expect(meanPairwiseCosine([[1, 1], [-2, -2]])).toBeCloseTo(-1, 12);
  });

  it("divides by the norms instead of assuming unit vectors", () => {
    // [3,4]·[4,3] = 24, both norms 5 → 24/25. A plain dot product would say 24.
    expect(meanPairwiseCosine([[3, 4], [4, 3]])).toBeCloseTo(0.96, 12);
  });

  it("averages over every unordered pair, once each", () => {
    // Pairs: [1,0]–[0,2] → 0, [1,0]–[3,3] → 1/√2, [0,2]–[3,3] → 1/√2; mean √2/3.
    expect(meanPairwiseCosine([[1, 0], [0, 2], [3, 3]])).toBeCloseTo(Math.SQRT2 / 3, 12);
    // Three basis vectors (3 pairs at 0) and the diagonal (3 pairs at 1/√3): 6 pairs, mean √3/6.
    const four = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]];
    expect(meanPairwiseCosine(four)).toBeCloseTo(Math.sqrt(3) / 6, 12);
    expect(meanPairwiseCosine([...four].reverse())).toBeCloseTo(Math.sqrt(3) / 6, 12);
  });

  it("reads five well-separated anchors as low and five near-copies as high", () => {
    const separated = [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]];
    const blurred = separated.map((v) => v.map((x) => x + 10));
    expect(meanPairwiseCosine(separated)).toBe(0);
    expect(meanPairwiseCosine(blurred)).toBeGreaterThan(0.99);
  });

  it("refuses fewer than 2 vectors, unequal lengths, a zero vector and non-finite numbers", () => {
    const refused = (vectors: number[][]) => {
      try {
        meanPairwiseCosine(vectors);
      } catch (error) {
        return isSsrInputError(error) ? (error as Error).message : "another error";
      }
      return "accepted";
    };
    expect(refused([])).toMatch(/at least 2 vectors, got 0/);
    expect(refused([[1, 0]])).toMatch(/at least 2 vectors, got 1/);
    expect(refused([[1, 0], [1, 0, 0]])).toMatch(/vector 1 has length 3, vector 0 has 2/);
    expect(refused([[1, 0], [0, 0]])).toMatch(/vector 1 is a zero vector/);
    expect(refused([[], []])).toMatch(/vector 0 is a zero vector/);
    expect(refused([[1, Number.NaN], [1, 0]])).toMatch(/non-finite/);
  });
});
