import { mergeModelUsage, type ModelUsage } from "@adrank/bus-contracts";
import type { AssetOutcome } from "./outcome.ts";
import type { RefinementOutcome } from "./refinement.ts";

/**
 * What a rank request cost in model calls and tokens, per model: every evaluation that came
 * back (primary and ablation, billed or not: a failed asset's ablation still spent tokens) and
 * every refinement vote. A reused evaluation made no model call now: its usage was its first
 * request's. It goes to the ledger with the settlement.
 */
export function modelUsageOfRank(outcomes: ReadonlyArray<AssetOutcome | undefined>, refinement: RefinementOutcome | null): ModelUsage[] {
  const lists: Array<readonly ModelUsage[] | undefined> = [];
  for (const outcome of outcomes) {
    if (outcome?.kind !== "evaluated") continue;
    for (const e of [outcome.primary, outcome.ablation]) if (e?.ok && e.reused !== true) lists.push(e.evaluation.usage);
  }
  lists.push(refinement?.usage);
  return mergeModelUsage(lists);
}
