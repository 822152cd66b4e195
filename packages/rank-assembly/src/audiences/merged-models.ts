import type { ModelsUsed } from "@adrank/contracts";

/**
 * The models behind several rankings as one: generators and voters each once in order of
 * first use across the rankings, the first embedder any of them names, simulated when any was.
 */
export function mergeModelsUsed(models: readonly ModelsUsed[]): ModelsUsed {
  return {
    generators: [...new Set(models.flatMap((m) => m.generators))],
    embedder: models.find((m) => m.embedder !== null)?.embedder ?? null,
    voters: [...new Set(models.flatMap((m) => m.voters))],
    simulated: models.some((m) => m.simulated),
  };
}
