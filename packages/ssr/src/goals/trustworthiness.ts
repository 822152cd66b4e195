import type { GoalKnowledge } from "./goal-knowledge.ts";
import { TRUST } from "./sim-visual-weights.ts";

export const TRUSTWORTHINESS: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not trust this brand.",
      "I probably would not trust this brand.",
      "I am not sure whether I would trust this brand.",
      "I would probably trust this brand.",
      "I would definitely trust this brand.",
    ],
    [
      "There is no way I would believe what this ad claims.",
      "It is unlikely that I would believe what this ad claims.",
      "I am undecided about whether to believe what this ad claims.",
      "It is likely that I would believe what this ad claims.",
      "I would certainly believe what this ad claims.",
    ],
    [
      "I would never feel safe giving this company my money or my details.",
      "I doubt that I would feel safe giving this company my money or my details.",
      "I am on the fence about giving this company my money or my details.",
      "Chances are I would feel safe giving this company my money or my details.",
      "I would absolutely feel safe giving this company my money or my details.",
    ],
  ],
  framing: {
    question: "How much would you trust this brand and believe what it claims?",
    comparison: "makes the brand look more trustworthy and its claims more believable to you",
  },
  simProfile: { action: "trust this brand", label: "trust", weights: TRUST, copyShare: 0.3 },
};
