import { describe, expect, it } from "vitest";
import { REPETITIONS_PER_EVALUATION } from "@adrank/contracts";
import {
  aggregateFromSimilarities,
  evaluationResult,
  MISSING_PRODUCT_READ,
  parseGeneratorAnswer,
  planEvaluation,
  similaritiesToAnchors,
  SsrInputError,
  type GeneratorAnswer,
  type SampleSimilarities,
} from "../src/index.ts";

// Per-sample scores as in aggregate.unit.spec.ts: A 4, B 5, C 2, D 3, E 3.
const A = [[0, 0.2, 0.4, 0.6, 0.8]];
const B = [[0, 0, 0, 0, 1]];
const C = [[0.8, 0.6, 0.4, 0.2, 0]];
const D = [[0.1, 0.2, 0.9, 0.2, 0.1]];
const E = [[0.3, 0.3, 0.3, 0.3, 0.3]];
/** Answers whose rationale and product read name their position. */
const answers = (n = 6): GeneratorAnswer[] => Array.from({ length: n }, (_, i) => ({ answer: `answer ${i}`, rationale: `rationale ${i}`, productRead: `product ${i}` }));
/** Cosines that put one sample wholly on `level` (1..5), so its score is that level. */
const decidedOn = (level: number): SampleSimilarities => [[1, 2, 3, 4, 5].map((l) => (l === level ? 1 : 0))];
const expectClose = (actual: readonly number[], expected: readonly number[]) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v, `entry ${i}`).toBeCloseTo(expected[i]!, 12));
};

describe("evaluationResult", () => {
  it("pairs the samples by position into three repetitions of two and aggregates them", () => {
    const r = evaluationResult(answers(), [A, B, C, D, E, A]);
    // (A, B) → 4.5, (C, D) → 2.5, (E, A) → 3.5; score 3.5
    expectClose(r.repetitionScores, [4.5, 2.5, 3.5]);
    expect(r.score).toBeCloseTo(3.5, 12);
    const { rationale: _r, productRead: _p, ...aggregate } = r;
    expect(aggregate).toEqual(
      aggregateFromSimilarities([
        [A, B],
        [C, D],
        [E, A],
      ]),
    );
    // Another order pairs differently: (A, C) → 3, (B, D) → 4, (E, A) → 3.5
    expectClose(evaluationResult(answers(), [A, C, B, D, E, A]).repetitionScores, [3, 4, 3.5]);
  });

  it("reads the answers in the order the plan lists its calls", () => {
    // Each call's sample scores its repetition + 1, so each repetition's two samples must meet.
    const rows = planEvaluation({ persona: { audience: { name: "Runners", demographics: {} }, goal: "purchase-intent", assetType: "Logo", platform: null, campaignType: null }, layer: "image-only", copy: null }).calls.map((c) =>
      decidedOn(c.repetition + 1),
    );
    expect(evaluationResult(answers(), rows).repetitionScores).toEqual([1, 2, 3]);
  });

  it("lets the sample closest to the final score speak for it", () => {
    const scored = (...levels: number[]) => evaluationResult(answers(), levels.map(decidedOn));
    // Repetitions 5, 2, 3.5 → score 3.5; samples 4 (3) and 5 (4) are both exactly 0.5 away,
    // so the first of them speaks.
    const tie = scored(5, 5, 2, 2, 3, 4);
    expect(tie.score).toBe(3.5);
    expect(tie).toMatchObject({ rationale: "rationale 4", productRead: "product 4" });
    // Repetitions 5, 2, 3 → score 10/3; sample 5 (4) is the closest.
    expect(scored(5, 5, 2, 2, 2, 4)).toMatchObject({ rationale: "rationale 5", productRead: "product 5" });
    // Repetitions 1.5, 4, 2.5 → score 8/3; sample 5 (3) is closer than samples 1 and 4 (2).
    expect(scored(1, 2, 4, 4, 2, 3)).toMatchObject({ rationale: "rationale 5", productRead: "product 5" });
  });

  it("gives a score within 1..5, probabilities summing to 1, three repetition scores and a rationale, whatever the answers", () => {
    const texts = ["", "I would probably buy it.", "Not for me.\nRATIONALE: Too dark.\nPRODUCT: Shoes.", "???", "RATIONALE:", "Maybe.\n\nPRODUCT: A jacket."];
    for (const rows of [
      [A, B, C, D, E, A],
      [E, E, E, E, E, E],
      [B, B, B, B, B, B],
      [C, C, C, C, C, C],
    ]) {
      const e = evaluationResult(texts.map(parseGeneratorAnswer), rows);
      expect(e.score).toBeGreaterThanOrEqual(1);
      expect(e.score).toBeLessThanOrEqual(5);
      expect(e.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      expect(e.repetitionScores).toHaveLength(REPETITIONS_PER_EVALUATION);
      expect(e.rationale.length).toBeGreaterThan(0);
      expect(e.productRead.length).toBeGreaterThan(0);
    }
    // Six identical samples: the first speaks, and an empty answer still has a rationale.
    expect(evaluationResult(texts.map(parseGeneratorAnswer), [E, E, E, E, E, E]).productRead).toBe(MISSING_PRODUCT_READ);
  });

  it("refuses anything but six answers with one row of similarities each", () => {
    const rows = [A, B, C, D, E, A];
    expect(() => evaluationResult(answers(5), rows.slice(0, 5))).toThrow(SsrInputError);
    expect(() => evaluationResult(answers(5), rows.slice(0, 5))).toThrow(/6 answers/);
    expect(() => evaluationResult(answers(), rows.slice(0, 5))).toThrow(/similarities/);
    expect(() => evaluationResult(answers(), [A, B, C, D, E, [[0, 0, 1]]])).toThrow(SsrInputError);
  });
});

describe("similaritiesToAnchors", () => {
  it("gives one row per reference set, one cosine per anchor in level order", () => {
    const sets = [
      [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1]],
      [[2, 0], [0, 0], [1, 0], [0, 3], [-1, -1]],
    ];
    const rows = similaritiesToAnchors([1, 0], sets);
    expect(rows).toHaveLength(2);
    rows[0]!.forEach((c, i) => expect(c).toBeCloseTo([1, 0, -1, 0, Math.SQRT1_2][i]!, 12));
    rows[1]!.forEach((c, i) => expect(c).toBeCloseTo([1, 0, 1, 0, -Math.SQRT1_2][i]!, 12));
  });

  it("refuses an answer vector of another length than the anchors", () => {
    expect(() => similaritiesToAnchors([1, 0, 0], [[[1, 0]]])).toThrow(SsrInputError);
  });
});
