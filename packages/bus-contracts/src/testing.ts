import type { Evaluation } from "./score-job.ts";

/**
 * A valid Evaluation with the given score, as a scorer would publish it: for tests that
 * stand in for the scorer (the gateway's join, the system tests' scripted scorer).
 */
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
    rationale: "scripted rationale (simulated)",
    productRead: "scripted product read",
    generatorModels: ["script:a", "script:b"],
    embeddingModel: "script:e",
    simulated: true,
  };
}
