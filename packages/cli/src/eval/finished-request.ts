import type { PairwiseResponse, RankResponse } from "@adrank/sdk";
import type { ModelsUsed } from "./eval-result.ts";
import { pairIdsOf } from "./request-bodies.ts";
import type { PlannedRequest } from "./plan.ts";

// What an eval run keeps of each answered request: the few fields its figures need, without
// the images the API echoes back, so the resume file stays small.

export interface FinishedRanking {
  index: number;
  kind: "rank";
  request_id: string;
  credits_used: number;
  models: ModelsUsed | null;
  scores: Array<{ id: string; score: number; score_before_refine: number }>;
  /** Creatives the API could not score, by asset id (null when the API named none). */
  errors: Array<{ id: string | null; error: string }>;
  /** The outcomes recorded for this ranking (--record-outcomes), under which metric; null when not (yet). */
  recorded: { metric: string; count: number } | null;
}

export interface FinishedPanels {
  index: number;
  kind: "pairwise";
  request_id: string;
  credits_used: number;
  models: ModelsUsed | null;
  /** By dataset line; `winner` null when the panel did not complete (status partial or error). */
  pairs: Array<{ line: number; status: "done" | "partial" | "error"; winner: "a" | "b" | null; votes_a: number; votes_b: number }>;
}

export type FinishedRequest = FinishedRanking | FinishedPanels;

export function finishedRanking(index: number, response: RankResponse): FinishedRanking {
  return {
    index,
    kind: "rank",
    request_id: response.request_id,
    credits_used: response.summary.credits_used,
    models: response.summary.models ?? null,
    scores: response.ranked.map((r) => ({ id: r.asset_id ?? "", score: r.score, score_before_refine: r.score_before_refine })),
    errors: response.errors.map((e) => ({ id: e.asset_id, error: e.error })),
    recorded: null,
  };
}

export function finishedPanels(request: Extract<PlannedRequest, { kind: "pairwise" }>, response: PairwiseResponse): FinishedPanels {
  const byId = new Map(response.pairs.map((p) => [p.pairId, p]));
  return {
    index: request.index,
    kind: "pairwise",
    request_id: response.request_id,
    credits_used: response.summary.credits_used,
    models: response.summary.models ?? null,
    pairs: request.rows.map((row) => {
      const ids = pairIdsOf(row.line);
      const pair = byId.get(ids.pair);
      if (!pair) return { line: row.line, status: "error" as const, winner: null, votes_a: 0, votes_b: 0 };
      const counted = pair.votes.filter((v) => v.valid !== false);
      const winner = pair.status === "done" ? (pair.winnerId === ids.a ? "a" : pair.winnerId === ids.b ? "b" : null) : null;
      return { line: row.line, status: pair.status, winner, votes_a: counted.filter((v) => v.winnerId === ids.a).length, votes_b: counted.filter((v) => v.winnerId === ids.b).length };
    }),
  };
}
