import type { GoalKnowledge } from "./goal-knowledge.ts";
import { BALANCED } from "./sim-visual-weights.ts";

export const CONVERSION_POTENTIAL: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not take the next step and sign up or buy.",
      "I probably would not take the next step and sign up or buy.",
      "I am not sure whether I would take the next step and sign up or buy.",
      "I would probably take the next step and sign up or buy.",
      "I would definitely take the next step and sign up or buy.",
    ],
    [
      "There is no way I would act on this offer.",
      "It is unlikely that I would act on this offer.",
      "I am undecided about whether to act on this offer.",
      "It is likely that I would act on this offer.",
      "I would certainly act on this offer.",
    ],
    [
      "I would never follow through and complete a purchase or sign-up from this.",
      "I doubt that I would follow through and complete a purchase or sign-up from this.",
      "I am on the fence about following through to a purchase or sign-up from this.",
      "Chances are I would follow through and complete a purchase or sign-up from this.",
      "I would absolutely follow through and complete a purchase or sign-up from this.",
    ],
    [
      "I will never go ahead and become a customer after seeing this.",
      "It is unlikely that I will go ahead and become a customer after seeing this.",
      "I am undecided about whether I will go ahead and become a customer after seeing this.",
      "I will probably go ahead and become a customer after seeing this.",
      "I will definitely go ahead and become a customer after seeing this.",
    ],
    [
      "I am definitely not going to place an order, book or register because of this.",
      "I doubt that I am going to place an order, book or register because of this.",
      "I am not sure whether I am going to place an order, book or register because of this.",
      "It is likely that I am going to place an order, book or register because of this.",
      "I am absolutely going to place an order, book or register because of this.",
    ],
    [
      "No way would I turn from a viewer into a paying customer here.",
      "I probably would not turn from a viewer into a paying customer here.",
      "I am on the fence about whether I would turn from a viewer into a paying customer here.",
      "Chances are I would turn from a viewer into a paying customer here.",
      "I would certainly turn from a viewer into a paying customer here.",
    ],
  ],
  framing: {
    question: "After seeing this, would you take the next step and sign up, buy or book?",
    comparison: "would make you more likely to take the next step and sign up, buy or book",
  },
  simProfile: { action: "take the next step and sign up or buy", label: "converting", weights: BALANCED, copyShare: 0.35 },
};
