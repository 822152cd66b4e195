import type { Reversal } from "@adrank/contracts";
import type { RepetitionNoise } from "@adrank/uncertainty";
import { audiencePairs } from "./audience-pairs.ts";
import { scoresByIndex, type AudienceRankedAsset, type AudienceRankedScores, type RequestAsset } from "./audience-scores.ts";
import { isBeyondNoise, orderProbability, pairNoise } from "./beyond-noise.ts";

type ReversalSide = Reversal["prefers_a"];

/**
 * Pairs of assets whose order flips between two audiences, each order beyond noise.
 *
 * For every pair of audiences X, Y (request order) and every two assets a, b both scored
 * under both (a the lower request index): X's final ranking puts one above the other and
 * Y's the other way round, and under each audience
 *   p_order = P(preferred > other) = T_df((m_preferred − m_other) / (s·√(2/3))) ≥ BEYOND_NOISE_PROBABILITY,
 * m the score_before_refine means and s, df the repetition noise pooled over X's and Y's
 * assets. A flip of the final ranks that the raw means do not carry (a panel's reversal, or
 * a gap within noise) is no reversal, and neither is any flip when df is 0 (noise unknown).
 *
 * Each side's gap = m_preferred − m_other (positive once p_order ≥ 0.95); swing = the sum of
 * both gaps. Largest swing first; equal swings keep the order of the audience pair, then of
 * the assets (the sort is stable and the pairs are generated in that order).
 */
export function reversalsAcross(assets: readonly RequestAsset[], audiences: readonly AudienceRankedScores[]): Reversal[] {
  const byAudience = audiences.map(scoresByIndex);
  const reversals: Reversal[] = [];
  for (const [xi, yi] of audiencePairs(audiences.length)) {
    const noise = pairNoise(audiences[xi]!, audiences[yi]!);
    if (noise.df === 0) continue;
    const x = { name: audiences[xi]!.audience, scores: byAudience[xi]! };
    const y = { name: audiences[yi]!.audience, scores: byAudience[yi]! };
    const common = assets.filter((asset) => x.scores.has(asset.index) && y.scores.has(asset.index));
    for (const [k, a] of common.entries())
      for (const b of common.slice(k + 1)) {
        const xa = x.scores.get(a.index)!;
        const xb = x.scores.get(b.index)!;
        const ya = y.scores.get(a.index)!;
        const yb = y.scores.get(b.index)!;
        const xPrefersA = xa.rank < xb.rank;
        if (xPrefersA === ya.rank < yb.rank) continue;
        const [forA, forB] = xPrefersA ? [side(x.name, xa, xb, "a", noise), side(y.name, ya, yb, "b", noise)] : [side(y.name, ya, yb, "a", noise), side(x.name, xa, xb, "b", noise)];
        if (!forA || !forB) continue;
        reversals.push({ asset_a: refOf(a), asset_b: refOf(b), prefers_a: forA, prefers_b: forB, swing: forA.gap + forB.gap });
      }
  }
  return reversals.sort((r, s) => s.swing - r.swing);
}

/** One audience's side of a reversal; null when its order is not beyond noise. */
function side(audience: string, a: AudienceRankedAsset, b: AudienceRankedAsset, preferred: "a" | "b", noise: RepetitionNoise): ReversalSide | null {
  const [upper, lower] = preferred === "a" ? [a, b] : [b, a];
  const p = orderProbability(upper.scoreBeforeRefine, lower.scoreBeforeRefine, noise);
  if (p === null || !isBeyondNoise(p)) return null;
  return { audience, score_a: a.scoreBeforeRefine, score_b: b.scoreBeforeRefine, gap: upper.scoreBeforeRefine - lower.scoreBeforeRefine, p_order: p };
}

function refOf(asset: RequestAsset): Reversal["asset_a"] {
  return { asset_index: asset.index, asset_id: asset.assetId, asset_url: asset.url };
}
