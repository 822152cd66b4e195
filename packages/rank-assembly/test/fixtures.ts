import type { Evaluation } from "@adrank/bus-contracts";
import type { ClosePairResult } from "@adrank/contracts";
import type { AssetOutcome, EvaluationOutcome } from "../src/index.ts";

/** A complete evaluation whose numbers are easy to recognise in assertions. */
export function evaluation(score: number, overrides: Partial<Evaluation> = {}): Evaluation {
  return {
    score,
    probabilities: [0.1, 0.1, 0.2, 0.3, 0.3],
    similarities: [0.5, 0.55, 0.6, 0.65, 0.7],
    repetitionScores: [score - 0.1, score, score + 0.1],
    repetitionScoreRange: 0.2,
    entropy: 0.9,
    topMargin: 0,
    sampleStdDev: 0.08,
    confidence: "medium",
    rationale: `rationale for ${score}`,
    productRead: `product read for ${score}`,
    generatorModels: ["sim:a", "sim:b"],
    embeddingModel: "sim:embed",
    simulated: true,
    ...overrides,
  };
}

export const ok = (score: number): EvaluationOutcome => ({ ok: true, evaluation: evaluation(score) });
export const fail = (error: string): EvaluationOutcome => ({ ok: false, error });

export const imageOnly = (score: number): AssetOutcome => ({ kind: "evaluated", layer: "image-only", primary: ok(score), ablation: null });
export const withCopy = (score: number, ablation: EvaluationOutcome): AssetOutcome => ({ kind: "evaluated", layer: "full-ad-package", primary: ok(score), ablation });
export const copyOnly = (score: number): AssetOutcome => ({ kind: "evaluated", layer: "copy-only", primary: ok(score), ablation: null });
export const failed = (error: string): AssetOutcome => ({ kind: "failed", error });

/** A refined pair whose panel chose b over a, the higher raw score, 4 votes to 1. */
export function closePairResult(aId: string, bId: string, voterModels: readonly string[] = ["sim:voter"]): ClosePairResult {
  const votes = [0, 1, 2, 3, 4].map((i) => ({
    voterId: `voter-${i + 1}`,
    order: i % 2 === 0 ? ("ab" as const) : ("ba" as const),
    winnerId: i === 0 ? aId : bId,
    loserId: i === 0 ? bId : aId,
    response: "WINNER: 2",
    valid: true,
    model: voterModels[i % voterModels.length]!,
    simulated: voterModels[i % voterModels.length]!.startsWith("sim:"),
  }));
  return { pairId: "close-pair-1", aId, bId, status: "done", votes, winnerId: bId, votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.8, gap: 0.1, rawScores: { a: 3.2, b: 3.1 }, flipped: true, model: "sim:voter" };
}
