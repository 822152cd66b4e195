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
    [
      "I will never be able to name the company behind this a week from now.",
      "It is unlikely that I will be able to name the company behind this a week from now.",
      "I am undecided about whether I will be able to name the company behind this a week from now.",
      "I will probably be able to name the company behind this a week from now.",
      "I will definitely be able to name the company behind this a week from now.",
    ],
    [
      "I am definitely not going to pick out this brand again among its competitors.",
      "I doubt that I am going to pick out this brand again among its competitors.",
      "I am not sure whether I am going to pick out this brand again among its competitors.",
      "It is likely that I am going to pick out this brand again among its competitors.",
      "I am absolutely going to pick out this brand again among its competitors.",
    ],
    [
      "No way would this brand stick in my memory.",
      "This brand probably would not stick in my memory.",
      "I am on the fence about whether this brand would stick in my memory.",
      "Chances are this brand would stick in my memory.",
      "This brand would certainly stick in my memory.",
    ],
  ],
  framing: {
    question: "Would you remember which brand this was and recognise it next time?",
    comparison: "would make the brand easier for you to remember and recognise later",
  },
  simProfile: { action: "remember this brand later", label: "brand recall", weights: BALANCED, copyShare: 0.2 },
};
