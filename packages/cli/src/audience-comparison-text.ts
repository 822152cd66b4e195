import type { AudienceSensitivity, RankAudiencesResponse, Reversal } from "@adrank/sdk";
import { fixed, signedFixed } from "./number-format.ts";
import { counted } from "./plural.ts";

// The sentences the terminal matrix and the HTML report both say about where audiences
// disagree, as plain text (the report escapes them).

/** How an image is named: its file name (asset_id), else the start of its URL. */
export type NameOf = (assetId: string | null, url: string) => string;

/** The mark beside an image that is in a reversal. */
export const REVERSAL_MARK = "↕";

export const REVERSAL_LEGEND = `${REVERSAL_MARK} = in a reversal (below): two audiences order this image and another one the other way round`;

export const REVERSALS_HEADING = "Reversals, each order beyond noise (scores before close-pair refinement):";

export const NO_REVERSALS = "No reversals: no two audiences order any two images the other way round beyond noise.";

/** "spring-sale.png ▲ over summer-launch.png for Bargain hunters (3.90 vs 3.20), ▼ for Skeptics (2.80 vs 3.60); swing 1.50" */
export function reversalSentence(r: Reversal, nameOf: NameOf): string {
  const a = nameOf(r.asset_a.asset_id, r.asset_a.asset_url);
  const b = nameOf(r.asset_b.asset_id, r.asset_b.asset_url);
  const side = (s: Reversal["prefers_a"]) => `${s.audience} (${fixed(s.score_a, 2)} vs ${fixed(s.score_b, 2)})`;
  return `${a} ▲ over ${b} for ${side(r.prefers_a)}, ▼ for ${side(r.prefers_b)}; swing ${fixed(r.swing, 2)}`;
}

/** "Bargain hunters vs Skeptics: rank correlation -1.00 over 3 images; largest score change 1.32" */
export function sensitivitySentence(s: AudienceSensitivity): string {
  const correlation =
    s.rank_correlation === null
      ? `no rank correlation (${s.assets_compared < 2 ? `${counted(s.assets_compared, "image")} scored by both` : "one of them scored every image alike"})`
      : `rank correlation ${signedFixed(s.rank_correlation, 2)} over ${counted(s.assets_compared, "image")}`;
  const change = s.largest_score_change === null ? "" : `; largest score change ${fixed(s.largest_score_change, 2)}`;
  return `${s.audience_a} vs ${s.audience_b}: ${correlation}${change}`;
}

/** The line a flagged pair of audiences gets: the comparison says nothing about them. */
export const noDifferenceSentence = (s: AudienceSensitivity): string => `⚠ persona made no difference: ${s.audience_a} and ${s.audience_b} scored every image alike within noise`;

/** The request's positions of the assets that are in some reversal. */
export const reversedAssets = (response: RankAudiencesResponse): Set<number> => new Set(response.reversals.flatMap((r) => [r.asset_a.asset_index, r.asset_b.asset_index]));

/** The `persona_made_no_difference` warning says in general words what the sensitivity lines say pair by pair. */
export const PERSONA_WARNING = "persona_made_no_difference";
