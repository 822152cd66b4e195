import { editDistance } from "./edit-distance.ts";

// Case, spaces, dashes and underscores do not change what a word means: "social-media-post"
// and "social media post" both mean "Social Media Post".
const loose = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, "");

/**
 * The one candidate the input most likely meant, or null when none is close enough to be a
 * good guess. An exact match differing only in case or separators wins; then the nearest by
 * edit distance, within a third of the input's length (so short inputs get no wild guesses);
 * then the only candidate the input begins.
 *
 * @example
 * closestMatch("purchse-intent", GOALS); // "purchase-intent"
 * closestMatch("social media post", ASSET_TYPES); // "Social Media Post"
 * closestMatch("xyz", GOALS); // null
 */
export function closestMatch(input: string, candidates: readonly string[]): string | null {
  const same = candidates.find((c) => loose(c) === loose(input));
  if (same !== undefined) return same;
  const limit = Math.max(1, Math.floor(input.length / 3));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(input.toLowerCase(), c.toLowerCase());
    // Ties go to the earlier candidate: lists are ordered by how often each value is used.
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  if (best !== null && bestDistance <= limit) return best;
  const begun = loose(input).length >= 3 ? candidates.filter((c) => loose(c).startsWith(loose(input))) : [];
  return begun.length === 1 ? begun[0]! : null;
}

/** `; did you mean "x"?` for the closest candidate, or "" when none is close. */
export function didYouMean(input: string, candidates: readonly string[], quote = true): string {
  const match = closestMatch(input, candidates);
  if (match === null) return "";
  return quote ? `; did you mean "${match}"?` : `; did you mean ${match}?`;
}
