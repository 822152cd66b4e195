import { describe, expect, it } from "vitest";
import { adjustScores, selectClosePairs, type PairVerdict } from "../src/index.ts";

const raw = (...scores: number[]) => new Map(scores.map((s, key) => [key, s] as [number, number]));

function verdicts(scores: Map<number, number>, winners: Array<number | null>): PairVerdict[] {
  const pairs = selectClosePairs([...scores].map(([key, score]) => ({ key, score })));
  return pairs.map((pair, i) => ({ pair, winner: winners[i] ?? null, votesFor: 4, votesTotal: 5, consistency: 0.5 }));
}

describe("adjustScores", () => {
  it("no flip: the panel agrees with the raw order, scores stay, both assets get the outcome", () => {
    const scores = raw(3.2, 3.1);
    const result = adjustScores(scores, verdicts(scores, [0]));
    expect([...result.scores]).toEqual([[0, 3.2], [1, 3.1]]);
    expect(result.applied).toHaveLength(1);
    expect(result.applied[0]).toMatchObject({ winner: 0, loser: 1, flipped: false, swapped: false });
    expect(result.outcomeOf.get(0)).toBe(result.applied[0]);
    expect(result.outcomeOf.get(1)).toBe(result.applied[0]);
  });

  it("one flip: the lower-scored winner takes the higher score and the loser the lower", () => {
    const scores = raw(3.2, 3.1, 4.5);
    const result = adjustScores(scores, verdicts(scores, [1]));
    expect(result.scores.get(1)).toBe(3.2);
    expect(result.scores.get(0)).toBe(3.1);
    expect(result.scores.get(2)).toBe(4.5);
    expect(result.applied[0]).toMatchObject({ winner: 1, loser: 0, flipped: true, swapped: true, scoresBefore: { winner: 3.1, loser: 3.2 }, scoresAfter: { winner: 3.2, loser: 3.1 } });
    expect(result.outcomeOf.has(2)).toBe(false);
  });

  it("chained swaps apply to the scores earlier swaps left; flipped is judged on the raw ones", () => {
    // 0: 3.0, 1: 3.1, 2: 3.2. Pairs by closeness: (1,0), (2,1), (2,0).
    const scores = raw(3.0, 3.1, 3.2);
    // (1,0): 0 wins -> swap: 0=3.1, 1=3.0. (2,1): 1 wins -> 1 has 3.0 < 3.2 -> swap: 1=3.2, 2=3.0.
    // (2,0): 2 wins -> 2 has 3.0 < 0's 3.1 -> swap: 2=3.1, 0=3.0.
    const result = adjustScores(scores, verdicts(scores, [0, 1, 2]));
    expect(result.applied.map((a) => a.swapped)).toEqual([true, true, true]);
    // Against the raw scores: 0 (3.0) over 1 (3.1) and 1 (3.1) over 2 (3.2) reverse the raw
    // order; 2 (3.2) over 0 (3.0) keeps it, although it swapped the scores earlier swaps left.
    expect(result.applied.map((a) => a.flipped)).toEqual([true, true, false]);
    expect(Object.fromEntries(result.scores)).toEqual({ 0: 3.0, 1: 3.2, 2: 3.1 });
    // The multiset of scores is unchanged.
    expect([...result.scores.values()].sort()).toEqual([3.0, 3.1, 3.2]);
    // Each asset reports the last panel it took part in.
    expect(result.outcomeOf.get(0)).toMatchObject({ winner: 2, loser: 0 });
    expect(result.outcomeOf.get(1)).toMatchObject({ winner: 1, loser: 2 });
  });

  it("a panel without a winner changes nothing and sets no outcome", () => {
    const scores = raw(3.2, 3.1);
    const result = adjustScores(scores, verdicts(scores, [null]));
    expect(Object.fromEntries(result.scores)).toEqual({ 0: 3.2, 1: 3.1 });
    expect(result.applied).toEqual([]);
    expect(result.outcomeOf.size).toBe(0);
  });

  it("an exact tie in score is not a flip, whichever asset wins", () => {
    const scores = raw(3.2, 3.2);
    const result = adjustScores(scores, verdicts(scores, [1]));
    expect(result.applied[0]).toMatchObject({ winner: 1, flipped: false, swapped: false });
  });

  it("rejects a verdict for an asset outside the pair", () => {
    const scores = raw(3.2, 3.1);
    const [v] = verdicts(scores, [0]);
    expect(() => adjustScores(scores, [{ ...v!, winner: 7 }])).toThrow(/not in pair/);
  });
});
