// The closed lists of the spec, defined once. Additive values ship inside v1 (Versioning 2).

export const GOALS = [
  "purchase-intent",
  "click-through-rate",
  "conversion-potential",
  "trustworthiness",
  "scroll-stopping",
  "engagement",
  "brand-recognition",
  "emotional-resonance",
  "open-rate",
  "logo-professionalism",
  "logo-versatility",
  "product-page-conversion",
  "landing-page-conversion",
] as const;
export type Goal = (typeof GOALS)[number];
export const DEFAULT_GOAL: Goal = "purchase-intent";

export const ASSET_TYPES = [
  "Social Media Post",
  "Advertisement",
  "Product Photo",
  "Email Header",
  "Landing Page Hero",
  "Logo",
  "Website Banner",
  "Illustration",
] as const;
export type AssetType = (typeof ASSET_TYPES)[number];
export const DEFAULT_ASSET_TYPE: AssetType = "Social Media Post";

const FIVE_STEP = ["very-low", "low", "moderate", "high", "very-high"] as const;

/** Accepted values of each known demographics field (InlineAudience). */
export const DEMOGRAPHIC_VALUES = {
  ageRange: ["18-24", "25-34", "35-44", "45-54", "55-64", "65+"],
  incomeLevel: ["under-25k", "25k-50k", "50k-75k", "75k-100k", "100k-150k", "150k+"],
  adSkepticism: FIVE_STEP,
  trustBaseline: FIVE_STEP,
  priceSensitivity: FIVE_STEP,
  categoryFamiliarity: ["none", "casual", "knowledgeable", "expert"],
  shoppingIntent: ["browsing", "researching", "comparing", "ready-to-buy"],
  urgency: ["none", "low", "moderate", "high", "urgent"],
  brandFamiliarity: ["unaware", "heard-of", "familiar", "loyal"],
  platformFatigue: ["low", "medium", "high", "very-high"],
} as const;
export type DemographicField = keyof typeof DEMOGRAPHIC_VALUES;

/** Copy keys and their accepted aliases (CopyContext); aliases are normalized to the preferred key. */
export const COPY_ALIASES = {
  pageName: ["businessName", "displayName"],
  adBody: ["primaryText", "body", "copy"],
  adHeadline: ["headline"],
  adCaption: ["caption"],
  adDescription: ["description"],
} as const;

/**
 * Bounds the spec leaves open. A paid API must not accept unbounded input: each bound is far
 * above any real ad and far below what would hurt the service.
 */
export const LIMITS = {
  assetsMin: 1,
  assetsMax: 20,
  pairsMin: 1,
  pairsMax: 10,
  /** rankAcrossAudiences: at least two audiences to compare, at most five (20 assets × 5 audiences × 2 evaluations is already 200). */
  audiencesMin: 2,
  audiencesMax: 5,
  /** A 10 MiB image is about 14 MB as base64; the decoded size is checked at intake. */
  urlMaxChars: 15_000_000,
  /** An https URL longer than this is no image address a CDN hands out (browsers stop near 2 KB). */
  httpsUrlMaxChars: 8_192,
  idMaxChars: 128,
  audienceNameMaxChars: 200,
  audienceDescriptionMaxChars: 4_000,
  demographicsExtraKeysMax: 30,
  demographicsValueMaxChars: 200,
  demographicsKeyMaxChars: 64,
  copyKeysMax: 50,
  copyValueMaxChars: 5_000,
  copyKeyMaxChars: 64,
  platformMaxChars: 64,
} as const;
