import { describe, expect, it } from "vitest";
import { pairwiseAgreement } from "../src/index.ts";

describe("pairwiseAgreement", () => {
  // Ranking A: a1 (score 0.9, outcome 5), a2 (0.5, 3), a3 (0.5, 1), a4 (0.1, 3).
  // Ranking B: b1 (0.2, 10), b2 (0.8, 2).
  const points = [
    { stratum: "A", score: 0.9, outcome: 5 },
    { stratum: "A", score: 0.5, outcome: 3 },
    { stratum: "A", score: 0.5, outcome: 1 },
    { stratum: "A", score: 0.1, outcome: 3 },
    { stratum: "B", score: 0.2, outcome: 10 },
    { stratum: "B", score: 0.8, outcome: 2 },
  ];

  it("counts pairs of one ranking by hand: agreeing 1, score tie 0.5, disagreeing 0, outcome tie left out", () => {
    // A: a1-a2 5>3 & 0.9>0.5 -> 1; a1-a3 -> 1; a1-a4 5>3 & 0.9>0.1 -> 1; a2-a3 3>1, scores
    //    tie -> 0.5; a2-a4 outcomes tie (3, 3) -> not counted; a3-a4 1<3 but 0.5>0.1 -> 0.
    //    5 pairs, 3.5 agreeing.
    // B: b1-b2 10>2 but 0.2<0.8 -> 0. 1 pair.
    // Across rankings (a1-b1, ...): not compared. Total 3.5 / 6.
    expect(pairwiseAgreement(points)).toEqual({ agreement: 3.5 / 6, pairs: 6 });
  });

  it("does not compare across rankings: the same points as one ranking count other pairs", () => {
    // One stratum of all 6: 15 pairs minus the outcome tie a2-a4 = 14 pairs.
    const pooled = pairwiseAgreement(points.map((p) => ({ ...p, stratum: "all" })));
    expect(pooled.pairs).toBe(14);
    // Extra cross pairs: a1-b1 5<10 & 0.9>0.2 -> 0; a1-b2 5>2 & 0.9>0.8 -> 1; a2-b1 3<10 & 0.5>0.2 -> 0;
    // a2-b2 3>2 & 0.5<0.8 -> 0; a3-b1 1<10 & 0.5>0.2 -> 0; a3-b2 1<2 & 0.5<0.8 -> 1;
    // a4-b1 3<10 & 0.1<0.2 -> 1; a4-b2 3>2 & 0.1<0.8 -> 0. 3.5 + 3 = 6.5 of 14.
    expect(pooled.agreement).toBeCloseTo(6.5 / 14, 12);
  });

  it("is 1 when the scores order every ranking like its outcomes, 0 when reversed, 0.5 when all scores tie", () => {
    const ranking = (scores: number[]) => scores.map((score, i) => ({ stratum: "r", score, outcome: i }));
    expect(pairwiseAgreement(ranking([1, 2, 3, 4]))).toEqual({ agreement: 1, pairs: 6 });
    expect(pairwiseAgreement(ranking([4, 3, 2, 1]))).toEqual({ agreement: 0, pairs: 6 });
    expect(pairwiseAgreement(ranking([7, 7, 7, 7]))).toEqual({ agreement: 0.5, pairs: 6 });
  });

  it("has no figure without a pair to compare", () => {
    expect(pairwiseAgreement([])).toEqual({ agreement: null, pairs: 0 });
    // One point per ranking.
    expect(pairwiseAgreement([{ stratum: "a", score: 1, outcome: 1 }, { stratum: "b", score: 2, outcome: 2 }])).toEqual({ agreement: null, pairs: 0 });
    // Every outcome of the ranking equal.
    expect(pairwiseAgreement([{ stratum: "a", score: 1, outcome: 3 }, { stratum: "a", score: 2, outcome: 3 }])).toEqual({ agreement: null, pairs: 0 });
  });
});
