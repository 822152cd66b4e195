import type { GoalKnowledge } from "./goal-knowledge.ts";
import { BALANCED } from "./sim-visual-weights.ts";

export const LANDING_PAGE_CONVERSION: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not sign up from this landing page.",
      "I probably would not sign up from this landing page.",
      "I am not sure whether I would sign up from this landing page.",
      "I would probably sign up from this landing page.",
      "I would definitely sign up from this landing page.",
    ],
    [
      "There is no way I would stay on this landing page and take the offer.",
      "It is unlikely that I would stay on this landing page and take the offer.",
      "I am undecided about whether to stay on this landing page and take the offer.",
      "It is likely that I would stay on this landing page and take the offer.",
      "I would certainly stay on this landing page and take the offer.",
    ],
    [
      "I would never fill in the form on this landing page.",
      "I doubt that I would fill in the form on this landing page.",
      "I am on the fence about filling in the form on this landing page.",
      "Chances are I would fill in the form on this landing page.",
      "I would absolutely fill in the form on this landing page.",
    ],
    [
      "I will never register after arriving on this page.",
      "It is unlikely that I will register after arriving on this page.",
      "I am undecided about whether I will register after arriving on this page.",
      "I will probably register after arriving on this page.",
      "I will definitely register after arriving on this page.",
    ],
    [
      "I am definitely not going to hand over my email address on this page to get the offer.",
      "I doubt that I am going to hand over my email address on this page to get the offer.",
      "I am not sure whether I am going to hand over my email address on this page to get the offer.",
      "It is likely that I am going to hand over my email address on this page to get the offer.",
      "I am absolutely going to hand over my email address on this page to get the offer.",
    ],
    [
      "No way would I claim the deal this page offers.",
      "I probably would not claim the deal this page offers.",
      "I am on the fence about whether I would claim the deal this page offers.",
      "Chances are I would claim the deal this page offers.",
      "I would certainly claim the deal this page offers.",
    ],
  ],
  framing: {
    question: "Arriving on this landing page, would you stay and sign up or take the offer?",
    comparison: "would make you more likely to stay on the landing page and sign up",
  },
  simProfile: { action: "sign up from this landing page", label: "signing up", weights: BALANCED, copyShare: 0.35 },
};
