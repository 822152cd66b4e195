import type { PairwiseResponse, RankAudiencesResponse, RankResponse } from "@adrank/sdk";
import type { ModelsUsed } from "./eval-result.ts";
import { pairIdsOf } from "./request-bodies.ts";
import type { PlannedRequest } from "./plan.ts";

// What an eval run keeps of each answered request: the few fields its figures need, without
// the images the API echoes back, so the resume file stays small.

/** One ranking's scores, and its creatives the API could not score, by asset id (null when the API named none). */
export interface RankingScores {
  scores: Array<{ id: string; score: number; score_before_refine: number }>;
  errors: Array<{ id: string | null; error: string }>;
}

export interface FinishedRanking extends RankingScores {
  index: number;
  kind: "rank";
  request_id: string;
  credits_used: number;
  models: ModelsUsed | null;
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

/** A side-by-side request: one ranking per audience of the plan, each by its own group's row ids. */
export interface FinishedAudienceRankings {
  index: number;
  kind: "rank-audiences";
  request_id: string;
  /** The whole request's: every audience's evaluations. */
  credits_used: number;
  models: ModelsUsed | null;
  by_audience: Array<RankingScores & { group: number }>;
}

export type FinishedRequest = FinishedRanking | FinishedAudienceRankings | FinishedPanels;

const scoresOf = (ranked: RankResponse["ranked"], idOf: (assetId: string | null) => string | null): RankingScores["scores"] =>
  ranked.flatMap((r) => {
    const id = idOf(r.asset_id);
    return id === null ? [] : [{ id, score: r.score, score_before_refine: r.score_before_refine }];
  });

export function finishedRanking(index: number, response: RankResponse): FinishedRanking {
  return {
    index,
    kind: "rank",
    request_id: response.request_id,
    credits_used: response.summary.credits_used,
    models: response.summary.models ?? null,
    scores: scoresOf(response.ranked, (id) => id ?? ""),
    errors: response.errors.map((e) => ({ id: e.asset_id, error: e.error })),
    recorded: null,
  };
}

/**
 * Keeps a side-by-side answer as each audience's ranking of its own rows. The request sent the
 * first audience's row ids; asset i of the request is row i of every audience of the plan (the
 * same creative), so an asset id read back names each audience's own row.
 */
export function finishedAudienceRankings(request: Extract<PlannedRequest, { kind: "rank-audiences" }>, response: RankAudiencesResponse): FinishedAudienceRankings {
  const position = new Map(request.audiences[0]!.rows.map((row, i) => [row.id, i]));
  return {
    index: request.index,
    kind: "rank-audiences",
    request_id: response.request_id,
    credits_used: response.summary.credits_used,
    models: response.summary.models ?? null,
    // by_audience is in the request's order, which is the plan's.
    by_audience: request.audiences.map(({ group, rows }, j) => {
      const ranking = response.by_audience[j];
      const idOf = (assetId: string | null) => {
        const i = assetId === null ? undefined : position.get(assetId);
        return i === undefined ? null : rows[i]!.id;
      };
      if (!ranking) return { group, scores: [], errors: [] };
      return { group, scores: scoresOf(ranking.ranked, idOf), errors: ranking.errors.map((e) => ({ id: idOf(e.asset_id), error: e.error })) };
    }),
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
