import type { PersonaInput } from "@adrank/bus-contracts";
import type { Embedder } from "@adrank/models";
import { meanPairwiseCosine } from "@adrank/ssr";
import { shortSha256 } from "@adrank/runtime";

type Goal = PersonaInput["goal"];

/** One reference set as the embedder sees it. */
export interface EmbeddedReferenceSet {
  /** The 5 anchor vectors, level 1..5. */
  vectors: number[][];
  /** SHA-256 of the set's statements as JSON, first 16 hex digits: the receipt names the set by it. */
  hash: string;
  /** Mean pairwise cosine of the five anchors: how separable the embedder finds the levels. */
  meanSimilarity: number;
}

/** A reference set's fingerprint, independent of any embedder. */
export function referenceSetHash(set: readonly string[]): string {
  return shortSha256(JSON.stringify(set));
}

/**
 * Anchor statements never change for a given embedding model, so each goal's sets are
 * embedded once per process and reused by every evaluation; their separability is measured
 * at the same time, once per embedder and goal.
 */
export function createAnchorEmbeddings(embedder: Embedder, anchorSets: (goal: Goal) => string[][]) {
  const cache = new Map<string, Promise<EmbeddedReferenceSet[]>>();
  return {
    /** The goal's reference sets, in order. */
    forGoal(goal: Goal, signal?: AbortSignal): Promise<EmbeddedReferenceSet[]> {
      const key = `${embedder.provider}:${embedder.model}:${goal}`;
      let entry = cache.get(key);
      if (!entry) {
        const sets = anchorSets(goal);
        entry = embedder.embed(sets.flat(), signal).then((flat) =>
          sets.map((set, i) => {
            const vectors = flat.slice(i * set.length, (i + 1) * set.length);
            return { vectors, hash: referenceSetHash(set), meanSimilarity: meanPairwiseCosine(vectors) };
          }),
        );
        // A failed call must not poison the cache for later evaluations.
        entry.catch(() => cache.delete(key));
        cache.set(key, entry);
      }
      return entry;
    },
  };
}
export type AnchorEmbeddings = ReturnType<typeof createAnchorEmbeddings>;
