import type { AudienceSensitivity } from "@adrank/contracts";
import { spearmanRho } from "@adrank/eval-stats";
import { audiencePairs } from "./audience-pairs.ts";
import { scoresByIndex, type AudienceRankedScores, type RequestAsset } from "./audience-scores.ts";
import { pairNoise, withinNoise } from "./beyond-noise.ts";

/**
 * How much each pair of audiences (request order: first with second, first with third, …)
 * moved the scores, over the assets both scored ("common", request order):
 * - rank_correlation = Spearman's ρ of the two audiences' final scores (midranks for ties);
 *   null with fewer than two common assets or when one side scored them all alike;
 * - largest_score_change = max |m_X − m_Y| of the score_before_refine means; null with none;
 * - persona_made_no_difference = at least one common asset and, for every one, neither
 *   T_df((m_X − m_Y) / (s·√(2/3))) nor T_df((m_Y − m_X) / (s·√(2/3))) reaches
 *   BEYOND_NOISE_PROBABILITY, s and df the repetition noise pooled over both audiences'
 *   assets. With df 0 (noise unknown) only exactly equal means count as the same.
 *
 * An audience shifted by a constant keeps ρ = 1 yet, once the shift is beyond noise, made a
 * difference: the two figures answer different questions.
 */
export function audienceSensitivities(assets: readonly RequestAsset[], audiences: readonly AudienceRankedScores[]): AudienceSensitivity[] {
  const byAudience = audiences.map(scoresByIndex);
  return audiencePairs(audiences.length).map(([xi, yi]) => {
    const x = byAudience[xi]!;
    const y = byAudience[yi]!;
    const common = assets.filter((asset) => x.has(asset.index) && y.has(asset.index)).map((asset) => [x.get(asset.index)!, y.get(asset.index)!] as const);
    const noise = pairNoise(audiences[xi]!, audiences[yi]!);
    const changes = common.map(([sx, sy]) => Math.abs(sx.scoreBeforeRefine - sy.scoreBeforeRefine));
    return {
      audience_a: audiences[xi]!.audience,
      audience_b: audiences[yi]!.audience,
      assets_compared: common.length,
      rank_correlation: spearmanRho(
        common.map(([sx]) => sx.score),
        common.map(([, sy]) => sy.score),
      ),
      largest_score_change: changes.length > 0 ? Math.max(...changes) : null,
      persona_made_no_difference: common.length > 0 && common.every(([sx, sy]) => withinNoise(sx.scoreBeforeRefine, sy.scoreBeforeRefine, noise)),
    };
  });
}
