import type { PersonaInput } from "@adrank/bus-contracts";
import type { Embedder } from "@adrank/models";

type Goal = PersonaInput["goal"];

/**
 * Anchor statements never change for a given embedding model, so each goal's sets are
 * embedded once per process and reused by every evaluation.
 */
export function createAnchorEmbeddings(embedder: Embedder, anchorSets: (goal: Goal) => string[][]) {
  const cache = new Map<string, Promise<number[][][]>>();
  return {
    /** Per reference set, the 5 anchor vectors (level 1..5). */
    forGoal(goal: Goal, signal?: AbortSignal): Promise<number[][][]> {
      const key = `${embedder.provider}:${embedder.model}:${goal}`;
      let entry = cache.get(key);
      if (!entry) {
        const sets = anchorSets(goal);
        entry = embedder.embed(sets.flat(), signal).then((flat) => sets.map((set, i) => flat.slice(i * set.length, (i + 1) * set.length)));
        // A failed call must not poison the cache for later evaluations.
        entry.catch(() => cache.delete(key));
        cache.set(key, entry);
      }
      return entry;
    },
  };
}
export type AnchorEmbeddings = ReturnType<typeof createAnchorEmbeddings>;
