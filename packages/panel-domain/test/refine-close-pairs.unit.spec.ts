import { describe, expect, it } from "vitest";
import type { PersonaInput, RefineAsset, RefineJob } from "@adrank/bus-contracts";
import { PANEL_SEATS, refineClosePairs, type CastVote, type RunPanel, type Side } from "../src/index.ts";

const image = (c: string) => ({ ref: c.repeat(64), mime: "image/png" as const, width: 96, height: 96 });
const asset = (key: number, score: number, id = `asset-${key}`): RefineAsset => ({ key, id, score, assetType: key === 1 ? "Logo" : "Advertisement", image: image(String(key)), copy: null });
// The request's persona; its request-level asset type is neither asset's own.
const persona: PersonaInput = { audience: { name: "Runners", demographics: {} }, goal: "click-through-rate", assetType: "Social Media Post", platform: "tiktok", campaignType: null };
const { assetType: _requestType, ...panelPersona } = persona;
const job = (assets: RefineAsset[]): RefineJob => ({ requestId: "7f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b", jobId: "x_refine", deadline: Date.now() + 10_000, persona, assets });

/** A panel runner that casts the scripted ballots for each pair, in call order. */
function scripted(...panels: Array<Array<Side | null>>) {
  const calls: Array<{ key: string; persona: Parameters<RunPanel>[1]; a: number; b: number; types: [string, string] }> = [];
  const run: RunPanel = async (key, p, a, b) => {
    const winners = panels[calls.length] ?? [];
    calls.push({ key, persona: p, a: a.key, b: b.key, types: [a.assetType, b.assetType] });
    const votes: CastVote[] = PANEL_SEATS.map((seat, i) => ({ ...seat, winner: winners[i] ?? null, response: `raw ${i}`, ...(winners[i] ? {} : { invalidReason: "no verdict" }) }));
    return { votes, model: "sim:sim-voter" };
  };
  return { run, calls };
}

describe("refineClosePairs", () => {
  it("a panel that prefers the lower-scored asset swaps the two scores and marks both", async () => {
    const { run, calls } = scripted(["b", "b", "b", "b", "a"]);
    const report = await refineClosePairs(job([asset(0, 3.2), asset(1, 3.1), asset(2, 4.5)]), run);
    expect(calls).toEqual([{ key: "r1", persona: panelPersona, a: 0, b: 1, types: ["Advertisement", "Logo"] }]);
    expect(report.pairsEvaluated).toBe(1);
    expect(Object.fromEntries(report.scores.map((s) => [s.key, s.score]))).toEqual({ 0: 3.1, 1: 3.2, 2: 4.5 });
    const outcome = { winnerAssetId: "asset-1", loserAssetId: "asset-0", flipped: true, votesFor: 4, votesTotal: 5, consistency: 0.6667 };
    expect(report.outcomes).toEqual(expect.arrayContaining([{ key: 0, panelOutcome: outcome }, { key: 1, panelOutcome: outcome }]));
    expect(report.outcomes).toHaveLength(2);
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ pairId: "close-pair-1", aId: "asset-0", bId: "asset-1", status: "done", winnerId: "asset-1", votesFor: 4, votesTotal: 5, winRate: 0.8, flipped: true, gap: 0.1, rawScores: { a: 3.2, b: 3.1 } });
    expect((report.results[0]!.votes as unknown[]).length).toBe(5);
  });

  it("reports flipped against the raw order in panel_outcome and in results, also after chained swaps", async () => {
    // Raw 0: 3.30, 1: 3.20, 2: 3.05; pairs closest first: 0/1 (0.10), 1/2 (0.15), 0/2 (0.25).
    // 0/1: 1 wins, swap (0 3.20, 1 3.30), raw 3.20 < 3.30: flipped.
    // 1/2: 2 wins, swap (1 3.05, 2 3.30), raw 3.05 < 3.20: flipped.
    // 0/2: 0 wins 4 to 1, swap back (0 3.30, 2 3.20), raw 3.30 > 3.05: not flipped.
    // The dissent is voter-5 (shown ab): 0 won 2 of 3 ab votes and 2 of 2 ba votes, consistency 1 - |2/3 - 1|.
    const { run, calls } = scripted(["b", "b", "b", "b", "b"], ["b", "b", "b", "b", "b"], ["a", "a", "a", "a", "b"]);
    const report = await refineClosePairs(job([asset(0, 3.3), asset(1, 3.2), asset(2, 3.05)]), run);
    expect(calls.map((c) => [c.a, c.b])).toEqual([[0, 1], [1, 2], [0, 2]]);
    expect(Object.fromEntries(report.scores.map((s) => [s.key, s.score]))).toEqual({ 0: 3.3, 1: 3.05, 2: 3.2 });
    expect(report.results.map((r) => [r.winnerId, r.flipped])).toEqual([["asset-1", true], ["asset-2", true], ["asset-0", false]]);
    const third = { winnerAssetId: "asset-0", loserAssetId: "asset-2", flipped: false, votesFor: 4, votesTotal: 5, consistency: 0.6667 };
    expect(Object.fromEntries(report.outcomes.map((o) => [o.key, o.panelOutcome]))).toEqual({
      0: third,
      1: { winnerAssetId: "asset-2", loserAssetId: "asset-1", flipped: true, votesFor: 5, votesTotal: 5, consistency: 1 },
      2: third,
    });
  });

  it("a panel without valid votes leaves the scores raw and reports the error", async () => {
    const { run } = scripted([null, null, null, null, null]);
    const report = await refineClosePairs(job([asset(0, 3.2), asset(1, 3.1)]), run);
    expect(Object.fromEntries(report.scores.map((s) => [s.key, s.score]))).toEqual({ 0: 3.2, 1: 3.1 });
    expect(report.outcomes).toEqual([]);
    expect(report.results[0]).toMatchObject({ status: "error", flipped: false, error: expect.stringMatching(/No valid vote/) });
    expect(report.results[0]).not.toHaveProperty("winnerId");
  });

  it("runs no panel when no two scores are within 0.30", async () => {
    const { run, calls } = scripted();
    const report = await refineClosePairs(job([asset(0, 2.0), asset(1, 3.0), asset(2, 4.0)]), run);
    expect(calls).toEqual([]);
    expect(report).toEqual({ pairsEvaluated: 0, scores: [{ key: 0, score: 2 }, { key: 1, score: 3 }, { key: 2, score: 4 }], outcomes: [], results: [], usage: [], voterReceipts: [] });
  });

  it("refines at most 6 pairs, all at once, each side with its own asset type under the request's persona", async () => {
    const { run, calls } = scripted();
    const report = await refineClosePairs(job([asset(0, 3.0), asset(1, 3.05), asset(2, 3.1), asset(3, 3.12), asset(4, 3.2)]), run);
    expect(calls).toHaveLength(6);
    expect(report.pairsEvaluated).toBe(6);
    expect(new Set(calls.map((c) => c.key)).size).toBe(6);
    const typeOf = (key: number) => (key === 1 ? "Logo" : "Advertisement");
    for (const c of calls) {
      expect(c.types).toEqual([typeOf(c.a), typeOf(c.b)]);
      // Not the higher-scored asset's type, and not the request-level one either: no type at all.
      expect(c.persona).toEqual(panelPersona);
      expect(c.persona).not.toHaveProperty("assetType");
    }
    // The Logo meets an Advertisement in some pair, and each keeps its own type there.
    expect(calls.some((c) => c.types.includes("Logo") && c.types.includes("Advertisement"))).toBe(true);
  });
});
