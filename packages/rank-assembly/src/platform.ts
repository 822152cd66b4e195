import { resolvePlacement } from "@adrank/ssr";

/**
 * The delivery platform of a request: `platform`, else the platform its `campaign_type`
 * runs on (reels, stories -> instagram; shorts -> google; feed -> meta), else null. The
 * scorer's persona resolves placements with the same function, so the summary and the
 * persona never disagree. An unknown campaign type names no platform: null.
 */
export function effectivePlatform(platform: string | undefined | null, campaignType: string | undefined | null): string | null {
  return resolvePlacement(platform, campaignType).platform;
}
