import { quoteUntrusted } from "./fence.ts";

export interface Placement {
  /** A known platform (lower case), the caller's free text, or null. */
  platform: string | null;
  /** The placement named by campaign_type, when one was given. */
  placement: string | null;
  /** One or two sentences telling the persona where it meets the creative. */
  framing: string;
}

export const PLATFORM_FRAMING: Readonly<Record<string, string>> = {
  meta: "You see it in your Facebook or Instagram feed, between posts from friends and accounts you follow.",
  facebook: "You see it in your Facebook feed, between posts from friends, family and groups.",
  instagram: "You see it on Instagram on your phone, among photos, reels and stories from accounts you follow.",
  tiktok: "You see it on TikTok, full screen and vertical, between short videos you swipe through quickly.",
  linkedin: "You see it in your LinkedIn feed, between professional updates and industry news.",
  google: "You see it on Google's network: beside search results, before or between YouTube videos, or as a display banner on a website.",
};

/** DESIGN: campaign_type names a placement, and through it a platform. */
export const CAMPAIGN_PLATFORM: Readonly<Record<string, string>> = {
  reels: "instagram",
  stories: "instagram",
  shorts: "google",
  feed: "meta",
};

const PLACEMENT_FRAMING: Readonly<Record<string, string>> = {
  reels: "It plays between Reels, full screen and vertical.",
  stories: "It appears between Stories, full screen, for a few seconds before you tap on.",
  shorts: "It appears between YouTube Shorts, full screen and vertical.",
  feed: "It appears in the main feed as you scroll.",
};

const known = (table: Readonly<Record<string, string>>, key: string): string | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
const blankToNull = (value: string | null | undefined): string | null => value?.trim() || null;

/**
 * Where the persona meets the creative. `platform` wins when both are given: the spec uses
 * campaign_type only when platform is omitted, so it is then ignored altogether. A
 * campaign_type alone maps to its platform (reels, stories → instagram; shorts → google,
 * i.e. YouTube; feed → meta). Unknown values of either are kept as free-text context,
 * quoted as untrusted text.
 *
 * @example
 * resolvePlacement(null, "reels").platform; // "instagram"
 */
export function resolvePlacement(platform: string | null | undefined, campaignType: string | null | undefined): Placement {
  const p = blankToNull(platform);
  if (p) {
    const key = p.toLowerCase();
    const framing = known(PLATFORM_FRAMING, key);
    if (framing) return { platform: key, placement: null, framing };
    return { platform: p, placement: null, framing: `You see it on the platform the advertiser names as ${quoteUntrusted(p)}.` };
  }
  const c = blankToNull(campaignType);
  if (c) {
    const key = c.toLowerCase();
    const mapped = known(CAMPAIGN_PLATFORM, key);
    if (mapped) return { platform: mapped, placement: key, framing: `${PLATFORM_FRAMING[mapped]!} ${PLACEMENT_FRAMING[key]!}` };
    return { platform: null, placement: c, framing: `You come across it online, in a placement the advertiser names as ${quoteUntrusted(c)}.` };
  }
  return { platform: null, placement: null, framing: "You come across it while browsing online; no particular platform is named." };
}
