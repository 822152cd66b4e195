import type { AssetOutcome } from "./outcome.ts";

/**
 * Scoring evaluations an asset is billed for (spec, billing rules): image-only 1; with copy
 * and a successful ablation 2; with copy and a failed ablation 1; copy-only 1; failed 0.
 *
 * An asset whose primary evaluation failed is a failed asset even when its ablation
 * succeeded: it appears only in `errors`, so nothing of it is billed. Charging for half an
 * answer the caller never sees would be charging for nothing.
 */
export function billedEvaluations(outcome: AssetOutcome): number {
  if (outcome.kind === "failed") return 0;
  if (!outcome.primary.ok) return 0;
  return 1 + (outcome.ablation?.ok ? 1 : 0);
}

/** The batch's billable evaluations: what the request settles in the ledger. */
export function billedEvaluationsOfBatch(outcomes: Iterable<AssetOutcome>): number {
  let sum = 0;
  for (const outcome of outcomes) sum += billedEvaluations(outcome);
  return sum;
}
