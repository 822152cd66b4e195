import { quoteUntrusted } from "./fence.ts";

/** How the persona meets each asset type of the spec: the context its reaction is about. */
export const ASSET_TYPE_FRAMING: Readonly<Record<string, string>> = {
  "Social Media Post": "The creative is a brand's social media post that appears while you scroll your feed among posts from people you follow.",
  Advertisement: "The creative is a paid advertisement, and you know someone is trying to sell you something.",
  "Product Photo": "The creative is a product photo, the kind you study on a shop page when deciding whether the item is right for you.",
  "Email Header": "The creative is the header image at the top of a marketing email: you see it in your inbox, in the preview or when you open the message.",
  "Landing Page Hero": "The creative is the large hero image at the top of a landing page you have just arrived on after clicking a link.",
  Logo: "The creative is a logo: judge it as a brand mark that has to represent a company everywhere it appears, not as an ad.",
  "Website Banner": "The creative is a banner on a website, competing with the page's own content for your attention.",
  Illustration: "The creative is an illustration a brand uses in its marketing, judged for its drawing, style and what it tells you about the brand.",
};

/**
 * The framing sentence of an asset type. The contract may add types; one without a framing
 * of its own is named as given, quoted as untrusted text.
 *
 * @example
 * assetTypeFraming("Logo"); // "The creative is a logo: judge it as a brand mark …"
 */
export function assetTypeFraming(assetType: string): string {
  if (Object.hasOwn(ASSET_TYPE_FRAMING, assetType)) return ASSET_TYPE_FRAMING[assetType]!;
  return `The creative is a piece of marketing the advertiser describes as ${quoteUntrusted(assetType)}.`;
}
