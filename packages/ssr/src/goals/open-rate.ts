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
    [
      "I will never click into this email to read it.",
      "It is unlikely that I will click into this email to read it.",
      "I am undecided about whether I will click into this email to read it.",
      "I will probably click into this email to read it.",
      "I will definitely click into this email to read it.",
    ],
    [
      "I am definitely not going to see what is inside an email headed by this.",
      "I doubt that I am going to see what is inside an email headed by this.",
      "I am not sure whether I am going to see what is inside an email headed by this.",
      "It is likely that I am going to see what is inside an email headed by this.",
      "I am absolutely going to see what is inside an email headed by this.",
    ],
    [
      "No way would I read the email that starts with this.",
      "I probably would not read the email that starts with this.",
      "I am on the fence about whether I would read the email that starts with this.",
      "Chances are I would read the email that starts with this.",
      "I would certainly read the email that starts with this.",
    ],
  ],
  framing: {
    question: "Seeing this at the top of an email in your inbox, would you open it?",
    comparison: "would make you more likely to open the email it leads",
  },
  simProfile: { action: "open this email", label: "opening the email", weights: ATTENTION, copyShare: 0.4 },
};
