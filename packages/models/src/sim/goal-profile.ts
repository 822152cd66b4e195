/** Relative weight of each visual sub-score in the sim's judgement. */
export interface VisualWeights {
  exposure: number;
  contrast: number;
  colour: number;
  sharpness: number;
  composition: number;
}

export interface GoalProfile {
  /** A verb phrase completing "I would definitely …". */
  action: string;
  /** A noun phrase completing "for …", as in "the stronger choice for …". */
  label: string;
  weights: VisualWeights;
  /** Share of the ad-package judgement that comes from the copy when copy is present. */
  copyShare: number;
}

const BALANCED: VisualWeights = { exposure: 1, contrast: 1, colour: 0.7, sharpness: 1, composition: 1.2 };
const ATTENTION: VisualWeights = { exposure: 1, contrast: 1.4, colour: 1.3, sharpness: 0.9, composition: 1 };
const TRUST: VisualWeights = { exposure: 1, contrast: 0.8, colour: 0.4, sharpness: 1.2, composition: 1.6 };
const CRAFT: VisualWeights = { exposure: 0.8, contrast: 1.2, colour: 0.5, sharpness: 1.3, composition: 1.6 };

const profile = (action: string, label: string, weights: VisualWeights, copyShare: number): GoalProfile => ({ action, label, weights, copyShare });

/**
 * Goals shift what matters: attention goals reward contrast and colour, trust and craft
 * goals reward clean composition and detail, and response goals lean more on the copy.
 */
const PROFILES: Record<string, GoalProfile> = {
  "purchase-intent": profile("buy this product", "buying", BALANCED, 0.25),
  "click-through-rate": profile("click on this ad", "clicking", ATTENTION, 0.35),
  "conversion-potential": profile("take the next step and sign up or buy", "converting", BALANCED, 0.35),
  trustworthiness: profile("trust this brand", "trust", TRUST, 0.3),
  "scroll-stopping": profile("stop scrolling to look at this", "stopping the scroll", ATTENTION, 0.15),
  engagement: profile("like, comment on or share this post", "engagement", ATTENTION, 0.25),
  "brand-recognition": profile("remember this brand later", "brand recall", BALANCED, 0.2),
  "emotional-resonance": profile("feel something when I see this", "emotional pull", ATTENTION, 0.25),
  "open-rate": profile("open this email", "opening the email", ATTENTION, 0.4),
  "logo-professionalism": profile("see this logo as professional", "a professional look", CRAFT, 0.1),
  "logo-versatility": profile("see this logo working everywhere it is used", "versatility", CRAFT, 0.1),
  "product-page-conversion": profile("buy from this product page", "buying from the page", BALANCED, 0.35),
  "landing-page-conversion": profile("sign up from this landing page", "signing up", BALANCED, 0.35),
};

export function goalProfile(goal: string): GoalProfile {
  return PROFILES[goal] ?? profile("act on this ad", "this goal", BALANCED, 0.25);
}
