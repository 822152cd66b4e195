import { describe, expect, it } from "vitest";
import { selectClosePairs } from "../src/index.ts";

const contenders = (...scores: number[]) => scores.map((score, key) => ({ key, score }));

describe("selectClosePairs", () => {
  it("pairs assets less than 0.30 apart, the higher score first", () => {
    const pairs = selectClosePairs(contenders(3.1, 3.35, 4.5));
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ higher: 1, lower: 0 });
    expect(pairs[0]!.gap).toBeCloseTo(0.25, 12);
  });

  it("a gap of exactly 0.30 is not close, even when floating point makes it 0.2999…", () => {
    expect(3.55 - 3.25).toBeLessThan(0.3); // the trap
    expect(selectClosePairs(contenders(3.25, 3.55))).toEqual([]);
    expect(selectClosePairs(contenders(2, 2.3))).toEqual([]);
    expect(selectClosePairs(contenders(2, 2.2999))).toHaveLength(1);
  });

  it("an exact tie is the closest pair; the earlier asset counts as higher", () => {
    const pairs = selectClosePairs(contenders(3.4, 3.2, 3.4));
    expect(pairs[0]).toEqual({ higher: 0, lower: 2, gap: 0 });
    expect(pairs.map((p) => [p.higher, p.lower])).toEqual([[0, 2], [0, 1], [2, 1]]);
  });

  it("overlapping pairs are all candidates, ordered by closeness, ties by request order", () => {
    const pairs = selectClosePairs(contenders(3.0, 3.1, 3.2));
    expect(pairs.map((p) => [p.higher, p.lower])).toEqual([
      [1, 0],
      [2, 1],
      [2, 0],
    ]);
  });

  it("keeps at most 6 of more candidates, the closest ones", () => {
    // Five assets within 0.2 of each other: 10 candidate pairs.
    const pairs = selectClosePairs(contenders(3.0, 3.01, 3.03, 3.06, 3.1));
    expect(pairs).toHaveLength(6);
    const gaps = pairs.map((p) => p.gap);
    expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(0.06 + 1e-12);
    // The four widest gaps (0.07, 0.09, 0.1, ...) are the ones left out.
    expect(pairs.some((p) => (p.higher === 4 && p.lower === 0))).toBe(false);
  });

  it("no pairs from fewer than two assets", () => {
    expect(selectClosePairs(contenders(3))).toEqual([]);
    expect(selectClosePairs([])).toEqual([]);
  });
});
