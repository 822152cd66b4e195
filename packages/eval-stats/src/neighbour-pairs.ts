import type { ReliabilityPair } from "@adrank/uncertainty";

/** An outcome with what its ranking said about the asset's place. */
export interface PlacedOutcome {
  requestId: string;
  rank: number | null;
  pAboveNext: number | null;
  value: number;
}

/**
 * The neighbouring pairs a reliability table checks: within each ranking, an asset at rank r
 * and the one at rank r + 1, both with an outcome that differs, the upper one carrying the
 * p_above_next its answer gave. Whether the outcomes ordered them as that probability favoured
 * is `orderedRight` (higher outcome is better); a tie in outcomes says nothing and is left out.
 * Outcomes of rankings answered before p_above_next existed (rank or p null) are left out too.
 *
 * @example
 * neighbourPairs([{ requestId: "r", rank: 1, pAboveNext: 0.8, value: 3 }, { requestId: "r", rank: 2, pAboveNext: null, value: 1 }]);
 * // [{ p: 0.8, orderedRight: true }]
 */
export function neighbourPairs(outcomes: readonly PlacedOutcome[]): ReliabilityPair[] {
  const byRequest = new Map<string, Map<number, PlacedOutcome>>();
  for (const o of outcomes) {
    if (o.rank === null) continue;
    let ranks = byRequest.get(o.requestId);
    if (!ranks) byRequest.set(o.requestId, (ranks = new Map()));
    ranks.set(o.rank, o);
  }
  const pairs: ReliabilityPair[] = [];
  for (const ranks of byRequest.values())
    for (const [rank, upper] of ranks) {
      const lower = ranks.get(rank + 1);
      if (!lower || upper.pAboveNext === null || upper.value === lower.value) continue;
      pairs.push({ p: upper.pAboveNext, orderedRight: upper.value > lower.value });
    }
  return pairs;
}
