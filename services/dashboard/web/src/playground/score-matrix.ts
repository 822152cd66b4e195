import type { AudiencesAnswer, PickedImage } from "./answers.ts";

/** One image under one audience. */
export interface MatrixCell {
  audience: string;
  /** Final score (after refinement); null when the image failed for this audience. */
  score: number | null;
  rank: number | null;
  /** How many images this audience ranked: the "of 3" in "#1 of 3". */
  rankedCount: number;
  /** This audience scores the image higher than every other audience does. */
  best: boolean;
  /** Why the image failed for this audience, when it did. */
  error: string | null;
}

/** One image across every audience. */
export interface MatrixRow {
  assetIndex: number;
  name: string;
  thumbnail: string | undefined;
  cells: MatrixCell[];
  /** Highest minus lowest score over the audiences that scored it; null when fewer than two did. */
  spread: number | null;
}

export interface ScoreMatrix {
  /** Column heads, in the request's order. */
  audiences: string[];
  /** One row per image, in the request's order. */
  rows: MatrixRow[];
}

/** "spring-sale.png", or "image 2" for an asset sent without an id. */
export const assetName = (ref: { asset_id: string | null; asset_index: number }): string => ref.asset_id ?? `image ${ref.asset_index + 1}`;

/**
 * The score matrix of a ranking across audiences: rows are images (with their thumbnails when
 * the page still has them), columns are audiences, each cell a score and a rank. The best cell
 * of a row is the audience the API names as `best_audience`, and only when the audiences really
 * differ on it: a spread of 0 has no best audience to point out.
 */
export function scoreMatrix(answer: AudiencesAnswer, images: readonly PickedImage[]): ScoreMatrix {
  const audiences = answer.by_audience.map((b) => b.audience);
  const rows = answer.comparison.map((c): MatrixRow => {
    const name = assetName(c);
    const cells = answer.by_audience.map((ranking): MatrixCell => {
      const s = c.scores.find((x) => x.audience === ranking.audience);
      const failed = ranking.errors.find((e) => (c.asset_id !== null ? e.asset_id === c.asset_id : e.asset_id === null && e.asset_url === c.asset_url));
      return {
        audience: ranking.audience,
        score: s?.score ?? null,
        rank: s?.rank ?? null,
        rankedCount: ranking.ranked.length,
        best: c.spread !== null && c.spread > 0 && c.best_audience === ranking.audience,
        error: s?.score == null ? (failed?.error ?? null) : null,
      };
    });
    return { assetIndex: c.asset_index, name, thumbnail: images.find((i) => i.name === c.asset_id)?.dataUri, cells, spread: c.spread };
  });
  return { audiences, rows };
}
