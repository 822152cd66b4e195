import type { GoalKnowledge } from "./goal-knowledge.ts";
import { ATTENTION } from "./sim-visual-weights.ts";

export const CLICK_THROUGH_RATE: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not click on this ad.",
      "I probably would not click on this ad.",
      "I am not sure whether I would click on this ad.",
      "I would probably click on this ad.",
      "I would definitely click on this ad.",
    ],
    [
      "There is no way I would tap on this to see more.",
      "It is unlikely that I would tap on this to see more.",
      "I am undecided about whether to tap on this to see more.",
      "It is likely that I would tap on this to see more.",
      "I would certainly tap on this to see more.",
    ],
    [
      "I would never click through to find out more about this.",
      "I doubt that I would click through to find out more about this.",
      "I am on the fence about clicking through to find out more about this.",
      "Chances are I would click through to find out more about this.",
      "I would absolutely click through to find out more about this.",
    ],
  ],
  framing: {
    question: "Would you click or tap on this to find out more?",
    comparison: "would make you more likely to click or tap on it to find out more",
  },
  simProfile: { action: "click on this ad", label: "clicking", weights: ATTENTION, copyShare: 0.35 },
};
