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
    [
      "I will never follow the link in this ad.",
      "It is unlikely that I will follow the link in this ad.",
      "I am undecided about whether I will follow the link in this ad.",
      "I will probably follow the link in this ad.",
      "I will definitely follow the link in this ad.",
    ],
    [
      "I am definitely not going to visit the website behind this ad.",
      "I doubt that I am going to visit the website behind this ad.",
      "I am not sure whether I am going to visit the website behind this ad.",
      "It is likely that I am going to visit the website behind this ad.",
      "I am absolutely going to visit the website behind this ad.",
    ],
    [
      "No way would I head to the page this ad links to.",
      "I probably would not head to the page this ad links to.",
      "I am on the fence about whether I would head to the page this ad links to.",
      "Chances are I would head to the page this ad links to.",
      "I would certainly head to the page this ad links to.",
    ],
  ],
  framing: {
    question: "Would you click or tap on this to find out more?",
    comparison: "would make you more likely to click or tap on it to find out more",
  },
  simProfile: { action: "click on this ad", label: "clicking", weights: ATTENTION, copyShare: 0.35 },
};
