import type { GoalKnowledge } from "./goal-knowledge.ts";
import { CRAFT } from "./sim-visual-weights.ts";

export const LOGO_PROFESSIONALISM: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not see this logo as professional.",
      "I probably would not see this logo as professional.",
      "I am not sure whether I would see this logo as professional.",
      "I would probably see this logo as professional.",
      "I would definitely see this logo as professional.",
    ],
    [
      "There is no way I would take a company with this logo seriously.",
      "It is unlikely that I would take a company with this logo seriously.",
      "I am undecided about whether to take a company with this logo seriously.",
      "It is likely that I would take a company with this logo seriously.",
      "I would certainly take a company with this logo seriously.",
    ],
    [
      "I would never think this mark belongs to a polished, established business.",
      "I doubt that I would think this mark belongs to a polished, established business.",
      "I am on the fence about whether this mark belongs to a polished, established business.",
      "Chances are I would think this mark belongs to a polished, established business.",
      "I would absolutely think this mark belongs to a polished, established business.",
    ],
  ],
  framing: {
    question: "As a brand mark, how professional and established does this logo make the company look?",
    comparison: "makes the company look more professional and established",
  },
  simProfile: { action: "see this logo as professional", label: "a professional look", weights: CRAFT, copyShare: 0.1 },
};
