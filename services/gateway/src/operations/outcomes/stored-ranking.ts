import { z } from "zod";

// What an outcome needs from a stored rank response: the goal, whether the sim model scored
// it, and each asset's scores. The stored text is the response as answered (long data URIs
// replaced by image tokens, which are still strings), so it parses as JSON without restoring
// images. Only the fields read here are checked; the rest of the response is left alone.
const StoredRankBody = z.object({
  ranked: z.array(
    z.object({ rank: z.number().int().optional(), asset_id: z.string().nullable(), score: z.number(), score_before_refine: z.number().nullable().optional(), p_above_next: z.number().nullable().optional() }),
  ),
  errors: z.array(z.object({ asset_id: z.string().nullable() })),
  summary: z.object({ goal: z.string(), models: z.object({ simulated: z.boolean() }) }),
});

export interface RankedScore {
  score: number;
  /** The raw score; the final score when the response carries none. */
  scoreBeforeRefine: number;
  /** Null when the response carries none (answered before they existed). */
  rank: number | null;
  pAboveNext: number | null;
}

export interface StoredRanking {
  goal: string;
  simulated: boolean;
  /** Every ranked asset with an id, by id: more than one entry when the request repeated an id. */
  ranked: ReadonlyMap<string, RankedScore[]>;
  /** Ids of the assets that could not be scored. */
  failed: ReadonlySet<string>;
}

/** Reads a stored rank response. Throws when the text is not one: that is our data, not the caller's mistake. */
export function readStoredRanking(resultBody: string): StoredRanking {
  const body = StoredRankBody.parse(JSON.parse(resultBody));
  const ranked = new Map<string, RankedScore[]>();
  for (const asset of body.ranked) {
    if (asset.asset_id === null) continue;
    const scores = ranked.get(asset.asset_id) ?? [];
    scores.push({ score: asset.score, scoreBeforeRefine: asset.score_before_refine ?? asset.score, rank: asset.rank ?? null, pAboveNext: asset.p_above_next ?? null });
    ranked.set(asset.asset_id, scores);
  }
  const failed = new Set(body.errors.flatMap((e) => (e.asset_id === null ? [] : [e.asset_id])));
  return { goal: body.summary.goal, simulated: body.summary.models.simulated, ranked, failed };
}
