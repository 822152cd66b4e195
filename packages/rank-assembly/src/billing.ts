import type { AssetOutcome, EvaluationOutcome } from "./outcome.ts";

/**
 * Scoring evaluations an asset is billed for (spec, billing rules): image-only 1; with copy
 * and a successful ablation 2; with copy and a failed ablation 1; copy-only 1; failed 0. A
 * reused evaluation (kept from an earlier request) is not billed: only those made now are.
 *
 * An asset whose primary evaluation failed is a failed asset even when its ablation
 * succeeded: it appears only in `errors`, so nothing of it is billed. Charging for half an
 * answer the caller never sees would be charging for nothing.
 */
export function billedEvaluations(outcome: AssetOutcome): number {
  if (outcome.kind === "failed") return 0;
  if (!outcome.primary.ok) return 0;
  return madeNow(outcome.primary) + (outcome.ablation ? madeNow(outcome.ablation) : 0);
}

/** 1 for a successful evaluation made for this request, 0 for a failed or a reused one. */
const madeNow = (e: EvaluationOutcome): number => (e.ok && e.reused !== true ? 1 : 0);

/**
 * Reused evaluations of an asset that appear in the answer: its primary and its ablation when
 * they were reused. Nothing of an asset whose primary failed appears, so nothing of it counts.
 */
export function reusedEvaluations(outcome: AssetOutcome): number {
  if (outcome.kind === "failed" || !outcome.primary.ok) return 0;
  return [outcome.primary, outcome.ablation].filter((e) => e?.ok === true && e.reused === true).length;
}

/** True when every evaluation of a scored asset was reused: it cost nothing (the ranked asset's `reused`). */
export function whollyReused(outcome: Extract<AssetOutcome, { kind: "evaluated" }>): boolean {
  return [outcome.primary, outcome.ablation].every((e) => e === null || (e.ok && e.reused === true));
}

/** The batch's billable evaluations: what the request settles in the ledger. */
export function billedEvaluationsOfBatch(outcomes: Iterable<AssetOutcome>): number {
  let sum = 0;
  for (const outcome of outcomes) sum += billedEvaluations(outcome);
  return sum;
}
