import type { RankResponse } from "@adrank/contracts";
import type { DriftAssetScore, NewDriftRun } from "@adrank/db/repositories";
import { DriftError } from "./drift-error.ts";
import type { ReferenceBatch } from "./reference-batch.ts";

/**
 * What the drift watch keeps of an answer to its batch: each asset's final score and rank, the
 * receipt and the validity warnings. Only a whole ranking is a run: an asset that failed, or
 * an answer that does not name every asset of the batch, throws a DriftError instead of
 * leaving a partial run that the next one would be compared with.
 */
export function driftRunOfAnswer(answer: RankResponse, batch: ReferenceBatch): NewDriftRun {
  if (answer.errors.length > 0) {
    const failed = answer.errors.map((e) => `${e.asset_id ?? e.asset_url.slice(0, 40)}: ${e.error}`).join("; ");
    throw new DriftError(`the reference batch did not rank whole (request ${answer.request_id}): ${failed}`);
  }
  const scores: Record<string, DriftAssetScore> = {};
  for (const asset of answer.ranked) {
    if (asset.asset_id === null || !batch.assetIds.includes(asset.asset_id)) throw new DriftError(`the answer ranked an asset the batch does not have (${String(asset.asset_id)}; request ${answer.request_id})`);
    scores[asset.asset_id] = { score: asset.score, rank: asset.rank };
  }
  const missing = batch.assetIds.filter((id) => scores[id] === undefined);
  if (missing.length > 0) throw new DriftError(`the answer did not rank ${missing.join(", ")} (request ${answer.request_id})`);
  return { batchHash: batch.hash, requestId: answer.request_id, receipt: answer.summary.method ?? null, scores, warnings: answer.summary.warnings ?? [] };
}
