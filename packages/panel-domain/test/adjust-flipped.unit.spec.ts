import { describe, expect, it } from "vitest";
import { adjustScores, selectClosePairs, type ClosePair, type PairVerdict } from "../src/index.ts";

// `flipped` says whether the panel reversed the two assets' RAW order; the swap itself is
// decided on the scores earlier swaps left. Worked out by hand:
//
//   raw   A (key 0) 3.30   B (key 1) 3.20   C (key 2) 3.05
//   pairs (gap < 0.30, closest first): A/B 0.10, B/C 0.15, A/C 0.25; `higher` is the raw higher.
//
//   1. A/B, B wins: B holds 3.20 < A's 3.30     -> swap: A 3.20, B 3.30.  raw B 3.20 < A 3.30: flipped
//   2. B/C, C wins: C holds 3.05 < B's 3.30     -> swap: B 3.05, C 3.30.  raw C 3.05 < B 3.20: flipped
//   3a. A/C, A wins: A holds 3.20 < C's 3.30    -> swap: A 3.30, C 3.20.  raw A 3.30 > C 3.05: NOT flipped
//       final A 3.30, B 3.05, C 3.20
//   3b. A/C, C wins: C holds 3.30 > A's 3.20    -> no swap.                raw C 3.05 < A 3.30: flipped
//       final A 3.20, B 3.05, C 3.30
//
// 3a swaps without flipping (it undoes what 1 and 2 did to A and C); 3b flips without swapping.

const A = 0;
const B = 1;
const C = 2;
const raw = new Map([
  [A, 3.3],
  [B, 3.2],
  [C, 3.05],
]);
const pairs: ClosePair[] = selectClosePairs([...raw].map(([key, score]) => ({ key, score })));
const verdict = (pair: ClosePair, winner: number, votesFor = 5): PairVerdict => ({ pair, winner, votesFor, votesTotal: 5, consistency: 1 });

describe("flipped is judged against the raw scores, the swap against the current ones", () => {
  it("selects the pairs in the order worked out by hand", () => {
    expect(pairs.map((p) => [p.higher, p.lower])).toEqual([
      [A, B],
      [B, C],
      [A, C],
    ]);
  });

  it("a third verdict that only undoes earlier swaps is not a flip", () => {
    const result = adjustScores(raw, [verdict(pairs[0]!, B), verdict(pairs[1]!, C), verdict(pairs[2]!, A, 4)]);
    expect(Object.fromEntries(result.scores)).toEqual({ [A]: 3.3, [B]: 3.05, [C]: 3.2 });
    expect(result.applied.map(({ winner, loser, flipped, swapped }) => ({ winner, loser, flipped, swapped }))).toEqual([
      { winner: B, loser: A, flipped: true, swapped: true },
      { winner: C, loser: B, flipped: true, swapped: true },
      { winner: A, loser: C, flipped: false, swapped: true },
    ]);
    expect(result.applied[2]).toMatchObject({ scoresBefore: { winner: 3.2, loser: 3.3 }, scoresAfter: { winner: 3.3, loser: 3.2 }, votesFor: 4 });
    // Each asset reports the last panel it took part in.
    expect(result.outcomeOf.get(A)).toMatchObject({ winner: A, loser: C, flipped: false });
    expect(result.outcomeOf.get(B)).toMatchObject({ winner: C, loser: B, flipped: true });
    expect(result.outcomeOf.get(C)).toMatchObject({ winner: A, loser: C, flipped: false });
  });

  it("a third verdict that agrees with the current scores but not the raw ones is a flip", () => {
    const result = adjustScores(raw, [verdict(pairs[0]!, B), verdict(pairs[1]!, C), verdict(pairs[2]!, C)]);
    expect(Object.fromEntries(result.scores)).toEqual({ [A]: 3.2, [B]: 3.05, [C]: 3.3 });
    expect(result.applied.map(({ winner, loser, flipped, swapped }) => ({ winner, loser, flipped, swapped }))).toEqual([
      { winner: B, loser: A, flipped: true, swapped: true },
      { winner: C, loser: B, flipped: true, swapped: true },
      { winner: C, loser: A, flipped: true, swapped: false },
    ]);
    expect(result.outcomeOf.get(A)).toMatchObject({ winner: C, loser: A, flipped: true });
  });
});
