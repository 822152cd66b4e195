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
    [
      "I will never rely on this company to keep its promises.",
      "It is unlikely that I will rely on this company to keep its promises.",
      "I am undecided about whether I will rely on this company to keep its promises.",
      "I will probably rely on this company to keep its promises.",
      "I will definitely rely on this company to keep its promises.",
    ],
    [
      "I am definitely not going to take the claims in this ad at face value.",
      "I doubt that I am going to take the claims in this ad at face value.",
      "I am not sure whether I am going to take the claims in this ad at face value.",
      "It is likely that I am going to take the claims in this ad at face value.",
      "I am absolutely going to take the claims in this ad at face value.",
    ],
    [
      "No way would I see this brand as honest and reliable.",
      "I probably would not see this brand as honest and reliable.",
      "I am on the fence about whether I would see this brand as honest and reliable.",
      "Chances are I would see this brand as honest and reliable.",
      "I would certainly see this brand as honest and reliable.",
    ],
  ],
  framing: {
    question: "How much would you trust this brand and believe what it claims?",
    comparison: "makes the brand look more trustworthy and its claims more believable to you",
  },
  simProfile: { action: "trust this brand", label: "trust", weights: TRUST, copyShare: 0.3 },
};
