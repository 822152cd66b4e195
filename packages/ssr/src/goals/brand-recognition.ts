import type { GoalKnowledge } from "./goal-knowledge.ts";
import { BALANCED } from "./sim-visual-weights.ts";

export const BRAND_RECOGNITION: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not remember this brand later.",
      "I probably would not remember this brand later.",
      "I am not sure whether I would remember this brand later.",
      "I would probably remember this brand later.",
      "I would definitely remember this brand later.",
    ],
    [
      "There is no way I would recall which brand made this ad.",
      "It is unlikely that I would recall which brand made this ad.",
      "I am undecided about whether I would recall which brand made this ad.",
      "It is likely that I would recall which brand made this ad.",
      "I would certainly recall which brand made this ad.",
    ],
    [
      "I would never recognise this brand the next time I see it.",
      "I doubt that I would recognise this brand the next time I see it.",
      "I am on the fence about whether I would recognise this brand the next time I see it.",
      "Chances are I would recognise this brand the next time I see it.",
      "I would absolutely recognise this brand the next time I see it.",
    ],
  ],
  framing: {
    question: "Would you remember which brand this was and recognise it next time?",
    comparison: "would make the brand easier for you to remember and recognise later",
  },
  simProfile: { action: "remember this brand later", label: "brand recall", weights: BALANCED, copyShare: 0.2 },
};
