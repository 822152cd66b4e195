import { describe, expect, it } from "vitest";
import { cosineSimilarity, isSsrInputError, pmfFromSimilarities, sampleFromSimilarities, scoreFromPmf } from "../src/index.ts";

const expectClose = (actual: readonly number[], expected: readonly number[]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v, `entry ${i}`).toBeCloseTo(expected[i]!, 12));
};
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe("pmfFromSimilarities", () => {
  it("is uniform with score 3 when every anchor is equally similar", () => {
    const p = pmfFromSimilarities([0.3, 0.3, 0.3, 0.3, 0.3]);
    expectClose(p, [0.2, 0.2, 0.2, 0.2, 0.2]);
    expect(scoreFromPmf(p)).toBeCloseTo(3, 12);
  });

  it("stays uniform for equal similarities even with epsilon (the literal formula would say level 1)", () => {
    // g all 0.65: numerators [ε,0,0,0,0], denominator ε → [1,0,0,0,0] literally; we return uniform.
    const p = pmfFromSimilarities([0.3, 0.3, 0.3, 0.3, 0.3], { epsilon: 0.05 });
    expectClose(p, [0.2, 0.2, 0.2, 0.2, 0.2]);
  });

  it("puts all mass on one dominant anchor", () => {
    // g = [.5,.5,.5,.5,1], min .5, Σg − 5·min = 3 − 2.5 = .5 → p = [0,0,0,0,1], score 5
    const p = pmfFromSimilarities([0, 0, 0, 0, 1]);
    expectClose(p, [0, 0, 0, 0, 1]);
    expect(scoreFromPmf(p)).toBeCloseTo(5, 12);
  });

  it("follows the formula on a peaked vector with tied minima", () => {
    // c = [.1,.2,.9,.2,.1] → g = [.55,.6,.95,.6,.55], min .55, Σg = 3.25, denominator 3.25 − 2.75 = .5
    // p = [0, .05, .4, .05, 0] / .5 = [0, .1, .8, .1, 0]; score = .2 + 2.4 + .4 = 3.0
    const p = pmfFromSimilarities([0.1, 0.2, 0.9, 0.2, 0.1]);
    expectClose(p, [0, 0.1, 0.8, 0.1, 0]);
    expect(scoreFromPmf(p)).toBeCloseTo(3, 12);
  });

  it("follows the formula on a graded vector without epsilon", () => {
    // c = [0,.2,.4,.6,.8] → g = [.5,.6,.7,.8,.9], denominator 3.5 − 2.5 = 1 → p = [0,.1,.2,.3,.4]
    // score = .2 + .6 + 1.2 + 2.0 = 4.0
    const p = pmfFromSimilarities([0, 0.2, 0.4, 0.6, 0.8]);
    expectClose(p, [0, 0.1, 0.2, 0.3, 0.4]);
    expect(scoreFromPmf(p)).toBeCloseTo(4, 12);
  });

  it("gives epsilon to the least similar anchor", () => {
    // ε = .1: numerators [.1,.1,.2,.3,.4], denominator 1 + .1 = 1.1
    // score = (.1 + .2 + .6 + 1.2 + 2.0) / 1.1 = 4.1 / 1.1 = 3.727272…
    const p = pmfFromSimilarities([0, 0.2, 0.4, 0.6, 0.8], { epsilon: 0.1 });
    expectClose(p, [0.1 / 1.1, 0.1 / 1.1, 0.2 / 1.1, 0.3 / 1.1, 0.4 / 1.1]);
    expect(scoreFromPmf(p)).toBeCloseTo(3.7272727272727, 12);
  });

  it("gives epsilon to the first of tied least similar anchors only", () => {
    // c = [.5,0,.5,0,1], ε = .2 → g = [.75,.5,.75,.5,1], min .5 at levels 2 and 4: level 2 gets ε
    // numerators [.25,.2,.25,0,.5], denominator 3.5 − 2.5 + .2 = 1.2
    // score = (.25 + .4 + .75 + 0 + 2.5) / 1.2 = 3.9 / 1.2 = 3.25
    const p = pmfFromSimilarities([0.5, 0, 0.5, 0, 1], { epsilon: 0.2 });
    expectClose(p, [0.25 / 1.2, 0.2 / 1.2, 0.25 / 1.2, 0, 0.5 / 1.2]);
    expect(scoreFromPmf(p)).toBeCloseTo(3.25, 12);
  });

  it("sharpens below temperature 1 and flattens above it", () => {
    // p = [0,.1,.2,.3,.4]; T = .5 → p² = [0,.01,.04,.09,.16], Σ .30; score = (.02+.12+.36+.80)/.30 = 1.30/.30
    const sharp = pmfFromSimilarities([0, 0.2, 0.4, 0.6, 0.8], { temperature: 0.5 });
    expectClose(sharp, [0, 1 / 30, 4 / 30, 9 / 30, 16 / 30]);
    expect(scoreFromPmf(sharp)).toBeCloseTo(13 / 3, 12);
    // T = 2 → √p = [0, .316228, .447214, .547723, .632456], Σ 1.943619, each / Σ
    const flat = pmfFromSimilarities([0, 0.2, 0.4, 0.6, 0.8], { temperature: 2 });
    [0, 0.1627, 0.230093, 0.281805, 0.325401].forEach((v, i) => expect(flat[i]).toBeCloseTo(v, 5));
    expect(scoreFromPmf(flat)).toBeLessThan(4);
    expect(scoreFromPmf(flat)).toBeGreaterThan(3);
  });

  it("puts everything on the top level at temperature 0, sharing ties, and never underflows to NaN", () => {
    expectClose(pmfFromSimilarities([0, 0.2, 0.4, 0.6, 0.8], { temperature: 0 }), [0, 0, 0, 0, 1]);
    // c = [1,0,1,0,0] → g = [1,.5,1,.5,.5] → p = [.5,0,.5,0,0]: two top levels share the mass
    expectClose(pmfFromSimilarities([1, 0, 1, 0, 0], { temperature: 0 }), [0.5, 0, 0.5, 0, 0]);
    expectClose(pmfFromSimilarities([0.3, 0.3, 0.3, 0.3, 0.3], { temperature: 0 }), [0.2, 0.2, 0.2, 0.2, 0.2]);
    // 0.4^(1/0.001) underflows to 0 in floats; scaling by the top level keeps it finite.
    const tiny = pmfFromSimilarities([0, 0.2, 0.4, 0.6, 0.8], { temperature: 0.001 });
    expect(tiny.every(Number.isFinite)).toBe(true);
    expectClose(tiny, [0, 0, 0, 0, 1]);
  });

  it("sums to 1 for near-equal similarities", () => {
    const p = pmfFromSimilarities([0.5, 0.5 + 1e-16, 0.5, 0.5 + 2e-16, 0.5]);
    expect(p.every((x) => x >= 0 && Number.isFinite(x))).toBe(true);
    expect(sum(p)).toBeCloseTo(1, 12);
  });

  it("refuses malformed input with a typed error instead of returning NaN", () => {
    const attempts = [
      () => pmfFromSimilarities([0.1, 0.2]),
      () => pmfFromSimilarities([0, 0, 0, 0, Number.NaN]),
      () => pmfFromSimilarities([0, 0, 0, 0, 0], { epsilon: -1 }),
      () => pmfFromSimilarities([0, 0, 0, 0, 0], { temperature: -1 }),
      () => pmfFromSimilarities([0, 0, 0, 0, 0], { temperature: Number.POSITIVE_INFINITY }),
      () => scoreFromPmf([1]),
    ];
    for (const attempt of attempts) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(isSsrInputError(caught), String(attempt)).toBe(true);
    }
  });
});

describe("sampleFromSimilarities", () => {
  it("averages the pmfs of the reference sets and reports the mean cosines", () => {
    // set 1 → [0,0,0,0,1]; set 2 → [0,.1,.2,.3,.4]; mean pmf [0,.05,.1,.15,.7]
    // score = .1 + .3 + .6 + 3.5 = 4.5; mean cosines [0,.1,.2,.3,.9]
    const s = sampleFromSimilarities([
      [0, 0, 0, 0, 1],
      [0, 0.2, 0.4, 0.6, 0.8],
    ]);
    expectClose(s.pmf, [0, 0.05, 0.1, 0.15, 0.7]);
    expectClose(s.similarities, [0, 0.1, 0.2, 0.3, 0.9]);
    expect(s.score).toBeCloseTo(4.5, 12);
  });

  it("is not the pmf of the mean cosines (sets are rated apart, then averaged)", () => {
    // mean cosines [0,.1,.2,.3,.9] alone would give g = [.5,.55,.6,.65,.95] → p = [0,.05,.1,.15,.45]/.75
    const s = sampleFromSimilarities([
      [0, 0, 0, 0, 1],
      [0, 0.2, 0.4, 0.6, 0.8],
    ]);
    expect(s.pmf[4]).not.toBeCloseTo(0.45 / 0.75, 3);
  });

  it("passes epsilon and temperature to every set", () => {
    const s = sampleFromSimilarities([[0, 0.2, 0.4, 0.6, 0.8]], { epsilon: 0.1 });
    expect(s.score).toBeCloseTo(4.1 / 1.1, 12);
  });

  it("needs at least one reference set", () => {
    expect(() => sampleFromSimilarities([])).toThrow(/reference set/);
  });
});

describe("cosineSimilarity", () => {
  it("is 1 for parallel, 0 for orthogonal, -1 for opposite and 0 for an empty vector", () => {
    expect(cosineSimilarity([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 3])).toBe(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
  });

  it("never leaves [-1, 1] through rounding", () => {
    const v = [0.1, 0.2, 0.3, 0.7, 1e-9];
    expect(Math.abs(cosineSimilarity(v, v))).toBeLessThanOrEqual(1);
  });

  it("refuses vectors of different lengths", () => {
    expect(() => cosineSimilarity([1, 2, 3], [1, 2])).toThrow(/differ in length/);
  });
});
