/** Width / height ratios a placement is designed for. */
const STORY = [9 / 16];
const SQUARE_PORTRAIT = [1, 4 / 5];
const FEED_LINK = [1.91, 1];
const DISPLAY_BANNERS = [1.91, 1.2, 728 / 90, 320 / 50, 970 / 250, 300 / 600];

/** Checked in order, so "instagram stories" finds the story format before the feed one. */
const PLACEMENTS: Array<{ match: RegExp; name: string; ratios: number[] }> = [
  { match: /stor(y|ies)|reels?|tiktok|shorts|snapchat/, name: "a vertical full-screen placement", ratios: STORY },
  { match: /instagram|\big\b/, name: "the Instagram feed", ratios: SQUARE_PORTRAIT },
  { match: /linkedin|facebook|\bmeta\b|\bfb\b|feed/, name: "a link-post feed", ratios: FEED_LINK },
  { match: /google|display|banner|gdn/, name: "display banner slots", ratios: DISPLAY_BANNERS },
  { match: /youtube|twitter|\bx\b/, name: "a widescreen placement", ratios: [16 / 9, 1] },
  { match: /pinterest/, name: "Pinterest", ratios: [2 / 3] },
];

/** Without a platform, some asset types still imply a shape. */
const ASSET_TYPE_RATIOS: Record<string, { name: string; ratios: number[] }> = {
  "email header": { name: "an email header", ratios: [3, 4] },
  "website banner": { name: "website banner slots", ratios: [728 / 90, 970 / 250, 1.91] },
  "landing page hero": { name: "a landing page hero", ratios: [16 / 9, 2.4] },
};

export interface AspectFit {
  /** 1 when the image matches one of the placement's ratios, falling towards 0 as it departs. */
  fit: number;
  placement: string;
}

/**
 * How well an image's shape suits where it will run, or null when the placement is unknown
 * (then shape has no effect). The fit falls off with the log-ratio distance to the nearest
 * designed ratio: a square image in a 9:16 slot scores about 0.18.
 */
export function aspectFit(width: number, height: number, platform: string | null, assetType: string): AspectFit | null {
  if (width <= 0 || height <= 0) return null;
  const key = platform?.toLowerCase().trim() ?? "";
  const known = (key && PLACEMENTS.find((p) => p.match.test(key))) || ASSET_TYPE_RATIOS[assetType.toLowerCase()];
  if (!known) return null;
  const ratio = width / height;
  const distance = Math.min(...known.ratios.map((r) => Math.abs(Math.log(ratio / r))));
  return { fit: Math.exp(-3 * distance), placement: known.name };
}
