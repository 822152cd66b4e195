import type { VoteReceipt } from "@adrank/bus-contracts";
import { PANEL_SIZE, type PairwiseRequest, type PairwiseResponse } from "@adrank/contracts";
import { votersUsed, type PresentedPanel } from "@adrank/panel-domain";
import type { Settlement } from "../settlement.ts";
import { billedPanelsOf } from "./billed-panels.ts";
import { pairwiseSplitWarnings, simulatedWarning } from "../trust/answer-warnings.ts";
import { methodReceiptOf } from "../trust/method-receipt.ts";

export interface PairwiseAssemblyInput {
  requestId: string;
  request: Pick<PairwiseRequest, "goal" | "pairs">;
  /** The persona's platform (see `personaOf`). */
  platform: string | null;
  audienceName: string;
  /** One presented panel per pair, in request order. */
  results: readonly PresentedPanel[];
  /** The model the voter pool said it runs when asked for presence; names the voter when no vote came back. */
  presenceModel: string | undefined;
  settlement: Settlement;
  /** How the votes were produced (the receipt's voters); empty from older voters. */
  voterReceipts: readonly VoteReceipt[];
}

/**
 * The pairwise response: every pair's panel in request order, and a summary whose billing
 * figures are the settlement's (see Settlement for when the ledger could not confirm it).
 */
export function assemblePairwiseResponse({ requestId, request, platform, audienceName, results, presenceModel, settlement, voterReceipts }: PairwiseAssemblyInput): PairwiseResponse {
  const completed = billedPanelsOf(results);
  const used = votersUsed(results.flatMap((r) => r.votes));
  return {
    request_id: requestId,
    pairs: [...results],
    summary: {
      goal: request.goal,
      platform,
      audience: audienceName,
      // The models that voted; when none answered, the ones the voter pool said it runs.
      model: used.voters.length > 0 ? used.voters.join(", ") : (presenceModel ?? "unknown"),
      panel_size: PANEL_SIZE,
      pairs_requested: request.pairs.length,
      pairs_completed: completed,
      pairs_failed: request.pairs.length - completed,
      valid_votes: results.reduce((n, r) => n + r.votes.filter((v) => v.valid).length, 0),
      pairwise_evaluations: settlement.units,
      credits_used: settlement.creditsUsed,
      credits_remaining: settlement.creditsRemaining,
      credits_status: settlement.status,
      models: { generators: [], embedder: null, voters: used.voters, simulated: used.simulated },
      warnings: [...simulatedWarning(used.simulated), ...pairwiseSplitWarnings(results)],
      method: methodReceiptOf({ evaluations: [], votes: voterReceipts }),
    },
  };
}
