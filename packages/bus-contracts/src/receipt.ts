import { z } from "zod";

// What a worker reports about how it produced its result (issue 34), so the gateway can write
// the answer's receipt (summary.method) from what actually ran, not from its own configuration.

const Hash = z.string().max(64);

/** One model as it ran: the reported version, temperature and thinking setting. */
export const ModelRun = z.object({
  /** "provider:model", the configured name. */
  model: z.string().max(300),
  /** Exact versions the provider reported in this job, distinct; empty when it reports none. */
  versions: z.array(z.string().max(200)).max(12),
  temperature: z.number().nullable(),
  thinking: z.string().max(200).nullable(),
});
export type ModelRun = z.infer<typeof ModelRun>;

/** A scoring evaluation's receipt. */
export const EvaluationReceipt = z.object({
  methodVersion: z.string().max(64),
  promptHash: Hash,
  /** The goal's reference sets, in order, each with its anchors' mean pairwise cosine under the embedder. */
  referenceSets: z.array(z.object({ hash: Hash, meanSimilarity: z.number().nullable() })).max(16),
  /** The scorer's limit for `anchors_not_separable`. */
  similarityLimit: z.number(),
  embedder: z.object({ model: z.string().max(300), dimensions: z.number().int().min(1) }),
  /** One per generator seat, in seat order. */
  generators: z.array(ModelRun).max(4),
});
export type EvaluationReceipt = z.infer<typeof EvaluationReceipt>;

/** A panel vote's receipt. */
export const VoteReceipt = ModelRun.extend({ promptHash: Hash });
export type VoteReceipt = z.infer<typeof VoteReceipt>;

/**
 * Vote receipts without repeats, in the order first seen: a panel of five votes on one model
 * carries one receipt, not five, so a report stays small however many panels ran.
 */
export function distinctVoteReceipts(receipts: readonly VoteReceipt[]): VoteReceipt[] {
  const seen = new Map<string, VoteReceipt>();
  for (const r of receipts) {
    const key = JSON.stringify([r.model, r.versions, r.temperature, r.thinking, r.promptHash]);
    if (!seen.has(key)) seen.set(key, r);
  }
  return [...seen.values()];
}
