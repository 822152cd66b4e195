import { describe, expect, it } from "vitest";
import { RefineResult, ScoreJob, ScoreResult, VoteResult } from "../src/index.ts";
import { evaluationFixture } from "../src/testing.ts";

const ids = { requestId: "8a6e0f8e-5d0b-4c1e-9f3a-2b7c4d5e6f70", jobId: "job-1", worker: "host:1" };

describe("job results on the bus", () => {
  it("a score result carries either an evaluation or a sentence, never both", () => {
    expect(ScoreResult.safeParse({ ...ids, outcome: { ok: true, evaluation: evaluationFixture(3.4) } }).success).toBe(true);
    expect(ScoreResult.safeParse({ ...ids, outcome: { ok: false, error: "The model refused." } }).success).toBe(true);
    expect(ScoreResult.safeParse({ ...ids, outcome: { ok: true, error: "The model refused." } }).success).toBe(false);
  });

  it("an evaluation must hold one score per repetition", () => {
    const evaluation = { ...evaluationFixture(3), repetitionScores: [3, 3] };
    expect(ScoreResult.safeParse({ ...ids, outcome: { ok: true, evaluation } }).success).toBe(false);
  });

  it("a vote result names its choice by position, or null for an unreadable answer", () => {
    const vote = { ok: true, model: "sim:voter", response: "WINNER: 1", choice: "first", simulated: true };
    expect(VoteResult.safeParse({ ...ids, outcome: vote }).success).toBe(true);
    expect(VoteResult.safeParse({ ...ids, outcome: { ...vote, choice: null, invalidReason: "no verdict" } }).success).toBe(true);
    expect(VoteResult.safeParse({ ...ids, outcome: { ...vote, choice: "a" } }).success).toBe(false);
  });

  it("a refinement report's results are typed close-pair results, not free-form records", () => {
    const votes = [0, 1, 2, 3, 4].map((i) => ({ voterId: `voter-${i + 1}`, order: i % 2 ? "ba" : "ab", winnerId: "x", loserId: "y", response: "WINNER: 1", valid: true }));
    const result = { pairId: "close-pair-1", aId: "x", bId: "y", status: "done", votes, winnerId: "x", votesFor: 5, votesTotal: 5, winRate: 1, consistency: 1, gap: 0.1, rawScores: { a: 3.3, b: 3.2 }, flipped: false, model: "sim:voter" };
    const report = { pairsEvaluated: 1, scores: [{ key: 0, score: 3.3 }], outcomes: [], results: [result] };
    expect(RefineResult.safeParse({ ...ids, outcome: { ok: true, report } }).success).toBe(true);
    const { rawScores: _dropped, ...withoutRawScores } = result;
    expect(RefineResult.safeParse({ ...ids, outcome: { ok: true, report: { ...report, results: [withoutRawScores] } } }).success).toBe(false);
  });

  it("a job carries its request, its id and its deadline", () => {
    const job = { requestId: ids.requestId, jobId: "j", deadline: 1, layer: "image-only", image: { ref: "a".repeat(64), mime: "image/png", width: 1, height: 1 }, copy: null, persona: { audience: { name: "n", demographics: {} }, goal: "purchase-intent", assetType: "t", platform: null, campaignType: null } };
    expect(ScoreJob.safeParse(job).success).toBe(true);
    const { deadline: _d, ...withoutDeadline } = job;
    expect(ScoreJob.safeParse(withoutDeadline).success).toBe(false);
    // A goal outside the contract would otherwise reach the prompts and the anchors unparsed.
    expect(ScoreJob.safeParse({ ...job, persona: { ...job.persona, goal: "g" } }).success).toBe(false);
  });
});
