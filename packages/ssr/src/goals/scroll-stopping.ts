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
    [
      "I will never freeze mid-scroll to take this in.",
      "It is unlikely that I will freeze mid-scroll to take this in.",
      "I am undecided about whether I will freeze mid-scroll to take this in.",
      "I will probably freeze mid-scroll to take this in.",
      "I will definitely freeze mid-scroll to take this in.",
    ],
    [
      "I am definitely not going to linger on this instead of scrolling on.",
      "I doubt that I am going to linger on this instead of scrolling on.",
      "I am not sure whether I am going to linger on this instead of scrolling on.",
      "It is likely that I am going to linger on this instead of scrolling on.",
      "I am absolutely going to linger on this instead of scrolling on.",
    ],
    [
      "No way would this catch my eye as I scroll past.",
      "This probably would not catch my eye as I scroll past.",
      "I am on the fence about whether this would catch my eye as I scroll past.",
      "Chances are this would catch my eye as I scroll past.",
      "This would certainly catch my eye as I scroll past.",
    ],
  ],
  framing: {
    question: "Scrolling past this in your feed, would it make you stop and look?",
    comparison: "would be more likely to make you stop scrolling and look",
  },
  simProfile: { action: "stop scrolling to look at this", label: "stopping the scroll", weights: ATTENTION, copyShare: 0.15 },
};
