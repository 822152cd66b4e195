import type { GoalKnowledge } from "./goal-knowledge.ts";
import { BALANCED } from "./sim-visual-weights.ts";

export const PURCHASE_INTENT: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not buy this product.",
      "I probably would not buy this product.",
      "I am not sure whether I would buy this product.",
      "I would probably buy this product.",
      "I would definitely buy this product.",
    ],
    [
      "There is no way I would spend my money on this.",
      "It is unlikely that I would spend my money on this.",
      "I am undecided about whether to spend my money on this.",
      "It is likely that I would spend my money on this.",
      "I would certainly spend my money on this.",
    ],
    [
      "I would never purchase what this ad is selling.",
      "I doubt that I would purchase what this ad is selling.",
      "I am on the fence about purchasing what this ad is selling.",
      "Chances are I would purchase what this ad is selling.",
      "I would absolutely purchase what this ad is selling.",
    ],
    [
      "I will never pay for what is advertised here.",
      "It is unlikely that I will pay for what is advertised here.",
      "I am undecided about whether I will pay for what is advertised here.",
      "I will probably pay for what is advertised here.",
      "I will definitely pay for what is advertised here.",
    ],
    [
      "I am definitely not going to order this for myself.",
      "I doubt that I am going to order this for myself.",
      "I am not sure whether I am going to order this for myself.",
      "It is likely that I am going to order this for myself.",
      "I am absolutely going to order this for myself.",
    ],
    [
      "No way would I part with my cash for this.",
      "I probably would not part with my cash for this.",
      "I am on the fence about whether I would part with my cash for this.",
      "Chances are I would part with my cash for this.",
      "I would certainly part with my cash for this.",
    ],
  ],
  framing: {
    question: "Would you buy what this is selling?",
    comparison: "would make you more likely to buy what it is selling",
  },
  simProfile: { action: "buy this product", label: "buying", weights: BALANCED, copyShare: 0.25 },
};
