import type { AssetComparison } from "@adrank/contracts";
import { scoresByIndex, type AudienceRankedScores, type RequestAsset } from "./audience-scores.ts";

/**
 * One entry per request asset, in the request's order: its final score, score before
 * refinement and rank under every audience (nulls where it failed), and, over the audiences
 * that scored it (two or more, else null):
 * - spread = max − min of the final scores;
 * - best_audience = the highest final score, the earlier audience on a tie;
 * - worst_audience = the lowest final score, the later audience on a tie.
 * So an asset every audience scored alike is "best" for the first and "worst" for the last,
 * with spread 0 saying they agree.
 *
 * @example
 * // A: 3.0, B: 3.5, C: 3.5 → { spread: 0.5, best_audience: "B", worst_audience: "A" }
 */
export function assetComparisons(assets: readonly RequestAsset[], audiences: readonly AudienceRankedScores[]): AssetComparison[] {
  const byAudience = audiences.map(scoresByIndex);
  return assets.map((asset) => {
    const scores = audiences.map((audience, i) => {
      const scored = byAudience[i]!.get(asset.index);
      return { audience: audience.audience, score: scored?.score ?? null, score_before_refine: scored?.scoreBeforeRefine ?? null, rank: scored?.rank ?? null };
    });
    const scored = scores.filter((s): s is typeof s & { score: number } => s.score !== null);
    let best = scored[0];
    let worst = scored[0];
    for (const s of scored.slice(1)) {
      if (s.score > best!.score) best = s;
      if (s.score <= worst!.score) worst = s;
    }
    const compared = scored.length >= 2;
    return {
      asset_index: asset.index,
      asset_id: asset.assetId,
      asset_url: asset.url,
      scores,
      spread: compared ? best!.score - worst!.score : null,
      best_audience: compared ? best!.audience : null,
      worst_audience: compared ? worst!.audience : null,
    };
  });
}
