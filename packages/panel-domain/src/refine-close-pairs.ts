import { distinctVoteReceipts, mergeModelUsage, type ModelUsage, type PersonaInput, type RefineAsset, type RefineJob, type RefinementReport, type VoteReceipt } from "@adrank/bus-contracts";
import type { ClosePairResult } from "@adrank/contracts";
import { adjustScores, type PairVerdict } from "./adjust.ts";
import { selectClosePairs } from "./close-pairs.ts";
import { presentPanel, round4 } from "./present.ts";
import { tallyPanel, type CastVote } from "./tally.ts";

/**
 * Runs one blinded panel on two assets (a shown as "a", b as "b"); resolves with its five
 * votes. The persona is the request's and has no asset type: each asset's own `assetType`
 * frames its image.
 */
export type RunPanel = (panelKey: string, persona: Omit<PersonaInput, "assetType">, a: RefineAsset, b: RefineAsset) => Promise<{ votes: CastVote[]; model: string | null; usage?: ModelUsage[]; receipts?: VoteReceipt[] }>;

/**
 * Close-pair refinement of one rank request (spec rank rule 8, design's adjustment rule):
 * select the close pairs, run their panels at once, then apply the verdicts in order of
 * closeness. Each pair's asset with the higher raw score is `a`.
 */
export async function refineClosePairs(job: RefineJob, runPanel: RunPanel): Promise<RefinementReport> {
  const byKey = new Map(job.assets.map((a) => [a.key, a]));
  const pairs = selectClosePairs(job.assets.map((a) => ({ key: a.key, score: a.score })));
  // The request-level type speaks for neither side of a pair: each side brings its own.
  const { assetType: _requestType, ...persona } = job.persona;
  const panels = await Promise.all(
    pairs.map((pair, i) => {
      const a = byKey.get(pair.higher)!;
      const b = byKey.get(pair.lower)!;
      return runPanel(`r${i + 1}`, persona, a, b);
    }),
  );
  const tallies = panels.map((p) => tallyPanel(p.votes));
  const verdicts: PairVerdict[] = pairs.map((pair, i) => {
    const t = tallies[i]!;
    return { pair, winner: t.winner === null ? null : t.winner === "a" ? pair.higher : pair.lower, votesFor: t.votesFor ?? 0, votesTotal: t.votesTotal, consistency: t.consistency ?? 0 };
  });
  const adjustment = adjustScores(new Map(job.assets.map((a) => [a.key, a.score])), verdicts);
  const idOf = (key: number) => byKey.get(key)!.id;
  const appliedByPair = new Map(adjustment.applied.map((a) => [a.pair, a]));

  const results = pairs.map((pair, i): ClosePairResult => {
    const applied = appliedByPair.get(pair);
    const a = byKey.get(pair.higher)!;
    const b = byKey.get(pair.lower)!;
    return {
      ...presentPanel({ pairId: `close-pair-${i + 1}`, aId: a.id, bId: b.id, votes: panels[i]!.votes, tally: tallies[i]! }),
      gap: round4(pair.gap),
      rawScores: { a: a.score, b: b.score },
      // Against the raw scores, like panel_outcome: not whether this verdict swapped scores.
      flipped: applied?.flipped ?? false,
      model: panels[i]!.model,
    };
  });
  return {
    pairsEvaluated: pairs.length,
    scores: [...adjustment.scores].map(([key, score]) => ({ key, score })),
    outcomes: [...adjustment.outcomeOf].map(([key, v]) => ({
      key,
      panelOutcome: { winnerAssetId: idOf(v.winner), loserAssetId: idOf(v.loser), flipped: v.flipped, votesFor: v.votesFor, votesTotal: v.votesTotal, consistency: round4(v.consistency) },
    })),
    results,
    usage: mergeModelUsage(panels.map((p) => p.usage)),
    voterReceipts: distinctVoteReceipts(panels.flatMap((p) => p.receipts ?? [])),
  };
}
