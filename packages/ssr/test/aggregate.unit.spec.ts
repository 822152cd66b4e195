import { describe, expect, it } from "vitest";
import { aggregateEvaluation, aggregateFromSimilarities, confidenceLabel, sampleFromSimilarities, type RatedSample } from "../src/index.ts";

const expectClose = (actual: readonly number[], expected: readonly number[], digits = 12) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v, `entry ${i}`).toBeCloseTo(expected[i]!, digits));
};
const sample = (pmf: number[]): RatedSample => ({ pmf, similarities: pmf.map((p) => p / 2), score: pmf.reduce((s, p, i) => s + (i + 1) * p, 0) });

describe("aggregateFromSimilarities over 3 repetitions x 2 generator samples", () => {
  // Per-sample pmfs and scores (see pmf.unit.spec.ts for each vector):
  //   A = [0,.2,.4,.6,.8] → [0,.1,.2,.3,.4], score 4      B = [0,0,0,0,1] → [0,0,0,0,1], score 5
  //   C = [.8,.6,.4,.2,0] → [.4,.3,.2,.1,0], score 2      D = [.1,.2,.9,.2,.1] → [0,.1,.8,.1,0], score 3
  //   E = [.3,.3,.3,.3,.3] → uniform, score 3
  // Repetitions (A,B), (C,D), (E,A) → repetition scores 4.5, 2.5, 3.5; score (4.5+2.5+3.5)/3 = 3.5
  const A = [[0, 0.2, 0.4, 0.6, 0.8]];
  const B = [[0, 0, 0, 0, 1]];
  const C = [[0.8, 0.6, 0.4, 0.2, 0]];
  const D = [[0.1, 0.2, 0.9, 0.2, 0.1]];
  const E = [[0.3, 0.3, 0.3, 0.3, 0.3]];
  const r = aggregateFromSimilarities([
    [A, B],
    [C, D],
    [E, A],
  ]);

  it("averages samples into repetitions and repetitions into the score", () => {
    expectClose(r.repetitionScores, [4.5, 2.5, 3.5]);
    expect(r.score).toBeCloseTo(3.5, 12);
    expect(r.repetitionScoreRange).toBeCloseTo(2, 12);
  });

  it("reports the population standard deviation of the three repetition scores", () => {
    // deviations +1, −1, 0 → variance (1 + 1 + 0) / 3 = 2/3 → √(2/3) = 0.816497 (the sample std dev would be 1)
    expect(r.sampleStdDev).toBeCloseTo(0.816497, 6);
  });

  it("averages the six pmfs and cosines, and derives entropy and top margin from the mean pmf", () => {
    // Σ pmfs = [.6, .8, 1.6, 1.0, 2.0] → /6 = [1/10, 2/15, 4/15, 1/6, 1/3]
    expectClose(r.probabilities, [1 / 10, 2 / 15, 4 / 15, 1 / 6, 1 / 3]);
    // Σ cosines = [1.2, 1.5, 2.4, 1.9, 3.0] → /6
    expectClose(r.similarities, [0.2, 0.25, 0.4, 1.9 / 6, 0.5]);
    // 1/3 − 4/15 = 1/15
    expect(r.topMargin).toBeCloseTo(1 / 15, 12);
    // −(.1·ln .1 + 2/15·ln 2/15 + 4/15·ln 4/15 + 1/6·ln 1/6 + 1/3·ln 1/3) / ln 5
    //   = (.230259 + .268654 + .352468 + .298627 + .366204) / 1.609438 = 1.516212 / 1.609438 = 0.942075
    expect(r.entropy).toBeCloseTo(0.942075, 5);
    // std dev .82 > .35
    expect(r.confidence).toBe("low");
  });
});

describe("aggregateEvaluation", () => {
  it("matches a second hand-computed case and labels it medium", () => {
    // repetitions: (4, 4) → 4; (3.5, 4.5) → 4; (4.5, 4.5) → 4.5; score 12.5/3 = 4.1667
    const r = aggregateEvaluation([
      [sample([0, 0, 0, 1, 0]), sample([0, 0, 0.5, 0, 0.5])],
      [sample([0, 0, 0.5, 0.5, 0]), sample([0, 0, 0, 0.5, 0.5])],
      [sample([0, 0, 0, 0.5, 0.5]), sample([0, 0, 0, 0.5, 0.5])],
    ]);
    expectClose(r.repetitionScores, [4, 4, 4.5]);
    expect(r.score).toBeCloseTo(12.5 / 3, 12);
    expect(r.repetitionScoreRange).toBeCloseTo(0.5, 12);
    // deviations −1/6, −1/6, +1/3 → variance (1/36 + 1/36 + 4/36) / 3 = 1/18 → 0.235702
    expect(r.sampleStdDev).toBeCloseTo(0.235702, 6);
    // mean pmf [0, 0, 1/6, 1/2, 1/3]; top margin 1/2 − 1/3 = 1/6
    expectClose(r.probabilities, [0, 0, 1 / 6, 1 / 2, 1 / 3]);
    expect(r.topMargin).toBeCloseTo(1 / 6, 12);
    // (1/6·ln 6 + 1/2·ln 2 + 1/3·ln 3) / ln 5 = (.298627 + .346574 + .366204) / 1.609438 = 0.628418
    expect(r.entropy).toBeCloseTo(0.628418, 5);
    // std dev .24 is neither <= .15 nor > .35
    expect(r.confidence).toBe("medium");
  });

  it("is fully confident about six identical decided samples", () => {
    const same = sample([0, 0, 0, 0, 1]);
    const r = aggregateEvaluation([
      [same, same],
      [same, same],
      [same, same],
    ]);
    expect(r).toMatchObject({ score: 5, sampleStdDev: 0, repetitionScoreRange: 0, topMargin: 1, confidence: "high" });
    expect(r.entropy).toBeCloseTo(0, 12);
  });

  it("reports maximal entropy and no margin for uniform answers", () => {
    const flat = sampleFromSimilarities([[0.2, 0.2, 0.2, 0.2, 0.2]]);
    const r = aggregateEvaluation([
      [flat, flat],
      [flat, flat],
      [flat, flat],
    ]);
    expect(r.score).toBeCloseTo(3, 12);
    expect(r.entropy).toBeCloseTo(1, 12);
    expect(r.entropy).toBeLessThanOrEqual(1);
    expect(r.topMargin).toBeCloseTo(0, 12);
    expect(r.confidence).toBe("low");
  });

  it("clamps the score to 1..5 against float drift", () => {
    const drift: RatedSample = { pmf: [0, 0, 0, 0, 1], similarities: [0, 0, 0, 0, 1], score: 5 + 1e-12 };
    const low: RatedSample = { pmf: [1, 0, 0, 0, 0], similarities: [1, 0, 0, 0, 0], score: 1 - 1e-12 };
    expect(aggregateEvaluation([[drift, drift], [drift, drift], [drift, drift]]).score).toBe(5);
    expect(aggregateEvaluation([[low, low], [low, low], [low, low]]).score).toBe(1);
  });

  it("labels a steady but near-flat evaluation low: indecision outranks agreement", () => {
    // Every sample [.28,.18,.18,.18,.18]: std dev 0, top margin .10 (high rule met) and
    // entropy (.28·ln(1/.28) + 4·.18·ln(1/.18)) / ln 5 = 0.988597 > .95 (low rule met).
    const s = sample([0.28, 0.18, 0.18, 0.18, 0.18]);
    const r = aggregateEvaluation([
      [s, s],
      [s, s],
      [s, s],
    ]);
    expect(r.sampleStdDev).toBe(0);
    expect(r.topMargin).toBeCloseTo(0.1, 12);
    expect(r.entropy).toBeCloseTo(0.988597, 5);
    expect(r.confidence).toBe("low");
  });

  it("refuses anything but three repetitions of two well-formed samples", () => {
    const s = sample([0, 0, 1, 0, 0]);
    expect(() => aggregateEvaluation([[s, s]])).toThrow(/3 repetitions/);
    expect(() => aggregateEvaluation([[s, s], [s, s], [s] as unknown as [RatedSample, RatedSample]])).toThrow(/2 samples/);
    const broken: RatedSample = { pmf: [1, 0], similarities: [0, 0, 0, 0, 0], score: 1 };
    expect(() => aggregateEvaluation([[s, s], [s, s], [s, broken]])).toThrow(/5 probabilities/);
    const nan: RatedSample = { ...s, score: Number.NaN };
    expect(() => aggregateEvaluation([[s, s], [s, s], [s, nan]])).toThrow(/non-finite/);
  });
});

describe("confidenceLabel at its boundaries", () => {
  it.each([
    // high: std dev <= .15 and top margin >= .10, both inclusive
    [{ sampleStdDev: 0.15, topMargin: 0.1, entropy: 0.5 }, "high"],
    [{ sampleStdDev: 0.1500001, topMargin: 0.1, entropy: 0.5 }, "medium"],
    [{ sampleStdDev: 0.1, topMargin: 0.0999999, entropy: 0.5 }, "medium"],
    // low: std dev > .35 or entropy > .95, both exclusive
    [{ sampleStdDev: 0.35, topMargin: 0, entropy: 0.5 }, "medium"],
    [{ sampleStdDev: 0.3500001, topMargin: 0.5, entropy: 0.2 }, "low"],
    [{ sampleStdDev: 0.2, topMargin: 0.05, entropy: 0.95 }, "medium"],
    [{ sampleStdDev: 0.2, topMargin: 0.05, entropy: 0.9500001 }, "low"],
    [{ sampleStdDev: 0.15, topMargin: 0.1, entropy: 0.95 }, "high"],
    // both rules met: low wins
    [{ sampleStdDev: 0.1, topMargin: 0.2, entropy: 0.96 }, "low"],
  ] as const)("%j → %s", (signals, label) => {
    expect(confidenceLabel(signals)).toBe(label);
  });

  it("reads a value that is on a threshold on paper but off by rounding as on it", () => {
    // 0.1 + 0.05 = 0.15000000000000002 and 0.3 − 0.2 = 0.09999999999999998 in floats
    expect(confidenceLabel({ sampleStdDev: 0.1 + 0.05, topMargin: 0.3 - 0.2, entropy: 0.5 })).toBe("high");
    expect(confidenceLabel({ sampleStdDev: 0.7 - 0.35, topMargin: 0, entropy: 0.5 })).toBe("medium");
  });
});
