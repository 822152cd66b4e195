/** One of the request's assets, as the comparison names it. */
export interface RequestAsset {
  /** Position in the request's `assets` (0-based): the key every audience's scores share. */
  index: number;
  url: string;
  assetId: string | null;
}

/** One asset of one audience's ranking: the figures the cross-audience comparison reads. */
export interface AudienceRankedAsset {
  index: number;
  /** Its rank in this audience's final ranking, from 1. */
  rank: number;
  /** The final score, after close-pair refinement. */
  score: number;
  /** The repetition mean before refinement: the score whose noise the repetitions measure. */
  scoreBeforeRefine: number;
  repetitionScores: readonly number[];
}

/** One audience's scored assets in final rank order; an asset that failed for it is absent. */
export interface AudienceRankedScores {
  audience: string;
  ranked: ReadonlyArray<AudienceRankedAsset>;
}

/** An audience's scored assets by request position. */
export function scoresByIndex(audience: AudienceRankedScores): ReadonlyMap<number, AudienceRankedAsset> {
  return new Map(audience.ranked.map((asset) => [asset.index, asset]));
}
