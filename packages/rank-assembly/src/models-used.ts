import type { ModelsUsed } from "@adrank/contracts";
import { votersUsed } from "@adrank/panel-domain";
import type { RefinementOutcome } from "./refinement.ts";
import type { ScoredAsset } from "./scored-asset.ts";

/**
 * The summary's `models`: the generators and embedder of the evaluations that were ranked and
 * the voters of the refinement panels, each once in order of first use. Only what produced
 * this response counts, so a request whose every asset failed names no model and is not
 * simulated.
 */
export function modelsUsedByRank(scored: readonly ScoredAsset[], refinement: RefinementOutcome): ModelsUsed {
  const generators = new Set<string>();
  const embedders = new Set<string>();
  let simulated = false;
  for (const { evaluation } of scored) {
    evaluation.generatorModels.forEach((m) => generators.add(m));
    embedders.add(evaluation.embeddingModel);
    simulated ||= evaluation.simulated;
  }
  const panels = votersUsed(refinement.report.results.flatMap((r) => r.votes));
  return {
    generators: [...generators],
    embedder: embedders.values().next().value ?? null,
    voters: panels.voters,
    simulated: simulated || panels.simulated,
  };
}
