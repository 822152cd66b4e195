import type { AssetComparison, AudienceSensitivity, Reversal } from "@adrank/contracts";
import { assetComparisons } from "./asset-comparison.ts";
import type { AudienceRankedScores, RequestAsset } from "./audience-scores.ts";
import { audienceSensitivities } from "./audience-sensitivity.ts";
import { reversalsAcross } from "./reversals.ts";

/** Where the audiences of one request agree and disagree: the response's three comparison members. */
export interface AudienceComparison {
  comparison: AssetComparison[];
  reversals: Reversal[];
  audience_sensitivity: AudienceSensitivity[];
}

/**
 * The comparison of one set of assets ranked for several audiences. Nothing is rounded: the
 * figures go out as computed. The statistic behind "beyond noise" is in beyond-noise.ts.
 *
 * @param assets the request's assets, in order
 * @param audiences each audience's scored assets in final rank order (failed assets absent), in the request's order
 */
export function compareAudiences(assets: readonly RequestAsset[], audiences: readonly AudienceRankedScores[]): AudienceComparison {
  return {
    comparison: assetComparisons(assets, audiences),
    reversals: reversalsAcross(assets, audiences),
    audience_sensitivity: audienceSensitivities(assets, audiences),
  };
}
