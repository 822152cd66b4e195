import { describe, expect, it } from "vitest";
import type { EvaluationReceipt } from "@adrank/bus-contracts";
import type { ClosePairResult, PairwiseResult } from "@adrank/contracts";
import { anchorWarnings, pairwiseSplitWarnings, positivityWarnings, refinementSplitWarnings, separationWarnings, simulatedWarning, type ScoredAsset } from "../src/index.ts";
import { closePairResult, evaluation } from "./fixtures.ts";

// Each validity warning (issue 34) with a case that raises it and one that does not.

function scored(index: number, repetitionScores: [number, number, number]): ScoredAsset {
  const score = (repetitionScores[0] + repetitionScores[1] + repetitionScores[2]) / 3;
  return {
    index,
    url: `u${index}`,
    assetId: `a${index}`,
    assetType: "Advertisement",
    layer: "image-only",
    copyIncluded: false,
    score,
    scoreBeforeRefine: score,
    ablation: { kind: "self" },
    evaluation: evaluation(score, { repetitionScores }),
    reused: false,
    reusedEvaluations: 0,
    panelOutcome: null,
  };
}

function receipt(similarities: Array<number | null>, limit = 0.65): EvaluationReceipt {
  return {
    methodVersion: "ssr-test",
    promptHash: "p",
    referenceSets: similarities.map((meanSimilarity, i) => ({ hash: `set${i}`, meanSimilarity })),
    similarityLimit: limit,
    embedder: { model: "openai:text-embedding-3-small", dimensions: 1536 },
    generators: [],
  };
}

/** A refined pair with `forWinner` of the valid votes for the winner and the rest against. */
function panel(forWinner: number, against: number, flipped: boolean): ClosePairResult {
  return { ...closePairResult("a0", "a1"), winnerId: "a1", votesFor: forWinner, votesTotal: forWinner + against, flipped };
}

describe("anchors_not_separable", () => {
  it("warns when a reference set's anchors are more alike than the scorer's limit, naming how many and how alike", () => {
    const warnings = anchorWarnings([receipt([0.31, 0.72, 0.4, 0.8, 0.2, 0.3])]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe("anchors_not_separable");
    expect(warnings[0]!.message).toContain("2 of 6 reference sets");
    expect(warnings[0]!.message).toContain("up to 0.80, limit 0.65");
  });

  it("stays quiet for separable sets, unmeasured ones and answers from scorers that sent no receipt", () => {
    expect(anchorWarnings([receipt([0.19, 0.17, 0.65, null])])).toEqual([]);
    expect(anchorWarnings([undefined, undefined])).toEqual([]);
    // The limit is the scorer's: the same similarity under a higher limit is fine.
    expect(anchorWarnings([receipt([0.8], 0.85)])).toEqual([]);
  });
});

describe("batch_not_separated", () => {
  it("warns when the assets' means differ by less than their repetitions' noise", () => {
    // Means 3.0 and 3.1 with repetitions spread ±0.5: F = 0.06 on (1, 4), p ≈ 0.8.
    const warnings = separationWarnings([scored(0, [3.5, 3.1, 2.7]), scored(1, [2.5, 3.0, 3.5])]);
    expect(warnings.map((w) => w.code)).toEqual(["batch_not_separated"]);
    expect(warnings[0]!.message).toMatch(/p = 0\.\d\d/);
  });

  it("stays quiet when the means stand well apart from the noise, and for a single asset", () => {
    expect(separationWarnings([scored(0, [4.1, 4.2, 4.0]), scored(1, [2.9, 3.0, 3.1])])).toEqual([]);
    expect(separationWarnings([scored(0, [4.1, 2.0, 3.0])])).toEqual([]);
  });
});

describe("uniformly_positive", () => {
  it("warns when every asset of a batch scored in the top two levels", () => {
    expect(positivityWarnings([{ score: 4.6 }, { score: 3.5 }, { score: 4.0 }]).map((w) => w.code)).toEqual(["uniformly_positive"]);
  });

  it("stays quiet when one asset scored lower, and for a single asset", () => {
    expect(positivityWarnings([{ score: 4.6 }, { score: 3.49 }])).toEqual([]);
    expect(positivityWarnings([{ score: 4.9 }])).toEqual([]);
  });
});

describe("panel_split", () => {
  it("warns when a refinement panel reversed the scores by one vote", () => {
    const warnings = refinementSplitWarnings([panel(3, 2, true)]);
    expect(warnings.map((w) => w.code)).toEqual(["panel_split"]);
    expect(warnings[0]!.message).toContain("a1 over a0 (3–2)");
  });

  it("stays quiet for a clear reversal and for a one-vote panel that agreed with the scores", () => {
    expect(refinementSplitWarnings([panel(4, 1, true)])).toEqual([]);
    expect(refinementSplitWarnings([panel(3, 2, false)])).toEqual([]);
  });

  it("warns on a pairwise pair won by one vote, not on one won 4–1 or tied", () => {
    const pair = (votesFor: number | undefined, votesTotal: number, winnerId?: string): PairwiseResult => ({ pairId: `p${votesFor}`, aId: "x", bId: "y", status: "done", votes: [], votesTotal, ...(winnerId ? { winnerId, votesFor } : {}) });
    expect(pairwiseSplitWarnings([pair(3, 5, "x")]).map((w) => w.message)).toEqual(["A pair was decided by one vote: p3 (3–2). Read win_probability before acting on such a winner."]);
    expect(pairwiseSplitWarnings([pair(4, 5, "x"), pair(undefined, 4)])).toEqual([]);
  });
});

describe("simulated", () => {
  it("warns exactly when the sim answered", () => {
    expect(simulatedWarning(true).map((w) => w.code)).toEqual(["simulated"]);
    expect(simulatedWarning(false)).toEqual([]);
  });
});
