import type { GoalKnowledge } from "./goal-knowledge.ts";
import { ATTENTION } from "./sim-visual-weights.ts";

export const EMOTIONAL_RESONANCE: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not feel anything when I see this.",
      "I probably would not feel much when I see this.",
      "I am not sure whether I would feel something when I see this.",
      "I would probably feel something when I see this.",
      "I would definitely feel something strong when I see this.",
    ],
    [
      "There is no way I would be moved by this.",
      "It is unlikely that I would be moved by this.",
      "I am undecided about whether I am moved by this.",
      "It is likely that I would be moved by this.",
      "I would certainly be moved by this.",
    ],
    [
      "I would never feel a personal connection to this.",
      "I doubt that I would feel a personal connection to this.",
      "I am on the fence about whether I feel a personal connection to this.",
      "Chances are I would feel a personal connection to this.",
      "I would absolutely feel a personal connection to this.",
    ],
    [
      "I will never be touched by what this shows.",
      "It is unlikely that I will be touched by what this shows.",
      "I am undecided about whether I will be touched by what this shows.",
      "I will probably be touched by what this shows.",
      "I will definitely be touched by what this shows.",
    ],
    [
      "I am definitely not going to relate to this on a personal level.",
      "I doubt that I am going to relate to this on a personal level.",
      "I am not sure whether I am going to relate to this on a personal level.",
      "It is likely that I am going to relate to this on a personal level.",
      "I am absolutely going to relate to this on a personal level.",
    ],
    [
      "No way would this stir an emotion in me.",
      "This probably would not stir an emotion in me.",
      "I am on the fence about whether this would stir an emotion in me.",
      "Chances are this would stir an emotion in me.",
      "This would certainly stir an emotion in me.",
    ],
  ],
  framing: {
    question: "How much does this make you feel something, and how personal does it feel?",
    comparison: "makes you feel more, more personally",
  },
  simProfile: { action: "feel something when I see this", label: "emotional pull", weights: ATTENTION, copyShare: 0.25 },
};
