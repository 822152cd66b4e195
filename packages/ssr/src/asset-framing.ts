import { quoteUntrusted } from "./fence.ts";

/**
 * What each asset type of the spec is, and the context the persona judges it in. Each
 * completes "The creative is …", "Image 1 is …" or "Each image is …"; `{it}` stands for the
 * creative, so one table frames a scored creative and both sides of a panel vote.
 */
const ASSET_KINDS: Readonly<Record<string, string>> = {
  "Social Media Post": "a brand's social media post that appears while you scroll your feed among posts from people you follow.",
  Advertisement: "a paid advertisement, and you know someone is trying to sell you something.",
  "Product Photo": "a product photo, the kind you study on a shop page when deciding whether the item is right for you.",
  "Email Header": "the header image at the top of a marketing email: you see {it} in your inbox, in the preview or when you open the message.",
  "Landing Page Hero": "the large hero image at the top of a landing page you have just arrived on after clicking a link.",
  Logo: "a logo: judge {it} as a brand mark that has to represent a company everywhere it appears, not as an ad.",
  "Website Banner": "a banner on a website, competing with the page's own content for your attention.",
  Illustration: "an illustration a brand uses in its marketing, judged for its drawing, style and what it tells you about the brand.",
};

/** A creative whose type nobody stated (a pairwise side without `asset_type`) is framed without a guess. */
const UNSTATED_KIND = "an ad creative whose format the advertiser did not state.";

/**
 * The contract may add types; one without a framing of its own is named as given, quoted as
 * untrusted text. Null means the type was not stated.
 */
function kindOf(assetType: string | null | undefined, it: string): string {
  if (assetType == null) return UNSTATED_KIND;
  const kind = Object.hasOwn(ASSET_KINDS, assetType) ? ASSET_KINDS[assetType]! : `a piece of marketing the advertiser describes as ${quoteUntrusted(assetType)}.`;
  return kind.replaceAll("{it}", it);
}

/** The framing sentence of each asset type the spec names, as `assetTypeFraming` gives it. */
export const ASSET_TYPE_FRAMING: Readonly<Record<string, string>> = Object.fromEntries(Object.keys(ASSET_KINDS).map((type) => [type, assetTypeFraming(type)]));

/**
 * The framing sentence of the one creative a persona judges; null or absent when the type
 * was not stated.
 *
 * @example
 * assetTypeFraming("Logo"); // "The creative is a logo: judge it as a brand mark …"
 * assetTypeFraming(null); // "The creative is an ad creative whose format the advertiser did not state."
 */
export function assetTypeFraming(assetType: string | null | undefined): string {
  return `The creative is ${kindOf(assetType, "it")}`;
}

/**
 * What the two images of a panel vote are, each by its own asset type and named by position
 * only: one sentence when both are of the same type, one per image otherwise.
 *
 * @example
 * pairTypeFraming(["Logo", "Logo"]); // "Each image is a logo: judge each one as a brand mark …"
 * pairTypeFraming(["Advertisement", null]);
 * // "Image 1 is a paid advertisement, … Image 2 is an ad creative whose format the advertiser did not state."
 */
export function pairTypeFraming([first, second]: readonly [string | null, string | null]): string {
  if (first === second) return `Each image is ${kindOf(first, "each one")}`;
  return `Image 1 is ${kindOf(first, "it")} Image 2 is ${kindOf(second, "it")}`;
}
