import type { GoalKnowledge } from "./goal-knowledge.ts";
import { ATTENTION } from "./sim-visual-weights.ts";

export const OPEN_RATE: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not open this email.",
      "I probably would not open this email.",
      "I am not sure whether I would open this email.",
      "I would probably open this email.",
      "I would definitely open this email.",
    ],
    [
      "There is no way I would open an email that leads with this.",
      "It is unlikely that I would open an email that leads with this.",
      "I am undecided about whether to open an email that leads with this.",
      "It is likely that I would open an email that leads with this.",
      "I would certainly open an email that leads with this.",
    ],
    [
      "I would never open this message from my inbox.",
      "I doubt that I would open this message from my inbox.",
      "I am on the fence about opening this message from my inbox.",
      "Chances are I would open this message from my inbox.",
      "I would absolutely open this message from my inbox.",
    ],
  ],
  framing: {
    question: "Seeing this at the top of an email in your inbox, would you open it?",
    comparison: "would make you more likely to open the email it leads",
  },
  simProfile: { action: "open this email", label: "opening the email", weights: ATTENTION, copyShare: 0.4 },
};
