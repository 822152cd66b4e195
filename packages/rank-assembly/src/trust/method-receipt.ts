import type { EvaluationReceipt, ModelRun, VoteReceipt } from "@adrank/bus-contracts";
import type { MethodReceipt, ModelReceipt, ReferenceSetReceipt } from "@adrank/contracts";
import { METHOD_VERSION } from "@adrank/ssr";

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const distinct = (xs: Iterable<string>) => [...new Set(xs)];

/**
 * Model runs of the same model with the same settings become one receipt entry whose versions
 * are every version reported, in the order first seen; a change of settings stays a separate entry.
 */
export function mergeModelRuns(runs: readonly ModelRun[]): ModelReceipt[] {
  const merged = new Map<string, ModelReceipt>();
  for (const run of runs) {
    const key = JSON.stringify([run.model, run.temperature, run.thinking]);
    const entry = merged.get(key);
    if (entry) entry.versions = distinct([...entry.versions, ...run.versions]);
    else merged.set(key, { model: run.model, versions: [...run.versions], temperature: run.temperature, thinking: run.thinking });
  }
  return [...merged.values()];
}

export interface ReceiptSources {
  /** The receipt of every evaluation whose score is in the answer; undefined from older scorers. */
  evaluations: readonly (EvaluationReceipt | undefined)[];
  /** The receipts of every vote in the answer (pairwise panels or refinement). */
  votes: readonly VoteReceipt[];
}

/**
 * The answer's `summary.method`: what the workers said produced it, never the gateway's own
 * configuration. The method version is the scorers'; an answer without evaluations (pairwise)
 * carries this build's, which is what its vote prompt belongs to.
 */
export function methodReceiptOf({ evaluations, votes }: ReceiptSources): MethodReceipt {
  const known = evaluations.filter((r): r is EvaluationReceipt => r !== undefined);
  const first = known[0];
  const sets = new Map<string, ReferenceSetReceipt>();
  for (const r of known)
    for (const s of r.referenceSets) {
      const similarity = s.meanSimilarity === null ? null : round4(s.meanSimilarity);
      const seen = sets.get(s.hash);
      if (!seen) sets.set(s.hash, { hash: s.hash, mean_similarity: similarity });
      else if (similarity !== null && (seen.mean_similarity === null || similarity > seen.mean_similarity)) seen.mean_similarity = similarity;
    }
  return {
    version: known.length > 0 ? distinct(known.map((r) => r.methodVersion)).join(", ") : METHOD_VERSION,
    prompt_templates: distinct([...known.map((r) => r.promptHash), ...votes.map((v) => v.promptHash)]),
    reference_sets: [...sets.values()],
    reference_similarity_limit: first ? first.similarityLimit : null,
    embedder: first ? { model: first.embedder.model, dimensions: first.embedder.dimensions } : null,
    generators: mergeModelRuns(known.flatMap((r) => r.generators)),
    voters: mergeModelRuns(votes.map(({ promptHash: _prompt, ...run }) => run)),
  };
}
