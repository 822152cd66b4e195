/** Values for omitted demographics: the common middle of each scale. */
export const DEMOGRAPHIC_DEFAULTS: Readonly<Record<DemographicField, string>> = {
  ageRange: "25-34",
  incomeLevel: "50k-75k",
  adSkepticism: "moderate",
  trustBaseline: "moderate",
  priceSensitivity: "moderate",
  categoryFamiliarity: "casual",
  shoppingIntent: "browsing",
  urgency: "low",
  brandFamiliarity: "heard-of",
  platformFatigue: "medium",
};

export type DemographicField =
  | "ageRange"
  | "incomeLevel"
  | "adSkepticism"
  | "trustBaseline"
  | "priceSensitivity"
  | "categoryFamiliarity"
  | "shoppingIntent"
  | "urgency"
  | "brandFamiliarity"
  | "platformFatigue";

export const DEMOGRAPHIC_FIELDS = Object.keys(DEMOGRAPHIC_DEFAULTS) as DemographicField[];

export function isDemographicField(key: string): key is DemographicField {
  return Object.hasOwn(DEMOGRAPHIC_DEFAULTS, key);
}

/**
 * Each accepted value of each field, said in plain words to the persona, without the anchor
 * statements' grading words (never, doubt, somewhat …): the persona text is part of every
 * generator prompt, and those words would be echoed back as the answer's stance.
 */
const PHRASES: Readonly<Record<DemographicField, Readonly<Record<string, string>>>> = {
  ageRange: {
    "18-24": "You are between 18 and 24 years old.",
    "25-34": "You are between 25 and 34 years old.",
    "35-44": "You are between 35 and 44 years old.",
    "45-54": "You are between 45 and 54 years old.",
    "55-64": "You are between 55 and 64 years old.",
    "65+": "You are 65 or older.",
  },
  incomeLevel: {
    "under-25k": "Your household earns under $25,000 a year.",
    "25k-50k": "Your household earns $25,000 to $50,000 a year.",
    "50k-75k": "Your household earns $50,000 to $75,000 a year.",
    "75k-100k": "Your household earns $75,000 to $100,000 a year.",
    "100k-150k": "Your household earns $100,000 to $150,000 a year.",
    "150k+": "Your household earns more than $150,000 a year.",
  },
  adSkepticism: {
    "very-low": "You rarely question what ads tell you.",
    low: "You are fairly open to what ads tell you.",
    moderate: "You take ads with a pinch of salt, as most people do.",
    high: "You are skeptical of ads and look for holes in their claims.",
    "very-high": "You distrust ads by default and dismiss most of them.",
  },
  trustBaseline: {
    "very-low": "You find it very hard to trust a brand you do not already know.",
    low: "You are slow to trust brands.",
    moderate: "You give brands a fair but cautious amount of trust.",
    high: "You tend to trust brands.",
    "very-high": "You trust brands readily.",
  },
  priceSensitivity: {
    "very-low": "Price hardly matters to you.",
    low: "Price matters to you a little.",
    moderate: "You weigh price against value like most shoppers.",
    high: "Price matters a lot to you: you compare costs and look for deals.",
    "very-high": "Price decides almost everything for you: you rarely buy what is not a bargain.",
  },
  categoryFamiliarity: {
    none: "You know nothing about this kind of product.",
    casual: "You know this kind of product casually, as an ordinary user.",
    knowledgeable: "You know this kind of product well.",
    expert: "You are an expert in this kind of product and notice weak claims at once.",
  },
  shoppingIntent: {
    browsing: "You are just browsing, not looking for anything in particular.",
    researching: "You are researching options of this kind.",
    comparing: "You are comparing specific options before you decide.",
    "ready-to-buy": "You are ready to buy and looking for the right offer.",
  },
  urgency: {
    none: "You have no need to buy anything like this soon.",
    low: "You are in no hurry.",
    moderate: "You would like to sort this out in the next few weeks.",
    high: "You need this soon.",
    urgent: "You need this right away.",
  },
  brandFamiliarity: {
    unaware: "The brand is new to you: you have not heard of it before.",
    "heard-of": "You have heard of the brand but know little about it.",
    familiar: "You know the brand well.",
    loyal: "You are a loyal customer of the brand.",
  },
  platformFatigue: {
    low: "You are not tired of the ads on this platform.",
    medium: "You are a bit tired of seeing ads on this platform.",
    high: "You are tired of ads on this platform and scroll past most of them.",
    "very-high": "You are fed up with ads on this platform and ignore nearly all of them.",
  },
};

/** The field's name in plain words, for values the persona cannot phrase itself. */
export const DEMOGRAPHIC_LABELS: Readonly<Record<DemographicField, string>> = {
  ageRange: "age range",
  incomeLevel: "household income",
  adSkepticism: "skepticism toward ads",
  trustBaseline: "baseline trust in brands",
  priceSensitivity: "price sensitivity",
  categoryFamiliarity: "familiarity with the product category",
  shoppingIntent: "shopping intent",
  urgency: "urgency",
  brandFamiliarity: "familiarity with the brand",
  platformFatigue: "fatigue with ads on the platform",
};

/**
 * The sentence for an accepted value, or null for a value outside the spec's list (the
 * persona then quotes it as untrusted text).
 */
export function describeDemographic(field: DemographicField, value: string): string | null {
  const phrases = PHRASES[field];
  return Object.hasOwn(phrases, value) ? phrases[value]! : null;
}
