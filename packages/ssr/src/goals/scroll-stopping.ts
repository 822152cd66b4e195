import type { GoalKnowledge } from "./goal-knowledge.ts";
import { ATTENTION } from "./sim-visual-weights.ts";

export const SCROLL_STOPPING: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not stop scrolling to look at this.",
      "I probably would not stop scrolling to look at this.",
      "I am not sure whether I would stop scrolling to look at this.",
      "I would probably stop scrolling to look at this.",
      "I would definitely stop scrolling to look at this.",
    ],
    [
      "There is no way this would make me pause in my feed.",
      "It is unlikely that this would make me pause in my feed.",
      "I am undecided about whether this would make me pause in my feed.",
      "It is likely that this would make me pause in my feed.",
      "This would certainly make me pause in my feed.",
    ],
    [
      "I would never let this interrupt my scrolling for a closer look.",
      "I doubt that I would let this interrupt my scrolling for a closer look.",
      "I am on the fence about whether this would interrupt my scrolling for a closer look.",
      "Chances are I would let this interrupt my scrolling for a closer look.",
      "I would absolutely let this interrupt my scrolling for a closer look.",
    ],
  ],
  framing: {
    question: "Scrolling past this in your feed, would it make you stop and look?",
    comparison: "would be more likely to make you stop scrolling and look",
  },
  simProfile: { action: "stop scrolling to look at this", label: "stopping the scroll", weights: ATTENTION, copyShare: 0.15 },
};
