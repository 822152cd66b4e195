import type { Evaluation } from "@adrank/messaging";

/** A valid Evaluation whose score is the one given. */
export function evaluationFixture(score: number): Evaluation {
  return {
    score,
    probabilities: [0.05, 0.1, 0.2, 0.35, 0.3],
    similarities: [0.4, 0.45, 0.5, 0.6, 0.65],
    repetitionScores: [score, score, score],
    repetitionScoreRange: 0,
    entropy: 0.88,
    topMargin: 0.05,
    sampleStdDev: 0,
    confidence: "medium",
    rationale: "fixture rationale",
    productRead: "fixture product read",
    generatorModels: ["sim:a", "sim:b"],
    embeddingModel: "sim:e",
    simulated: true,
  };
}
