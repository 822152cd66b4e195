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
    [
      "I will never regard this emblem as the sign of a well-run company.",
      "It is unlikely that I will regard this emblem as the sign of a well-run company.",
      "I am undecided about whether I will regard this emblem as the sign of a well-run company.",
      "I will probably regard this emblem as the sign of a well-run company.",
      "I will definitely regard this emblem as the sign of a well-run company.",
    ],
    [
      "I am definitely not going to find this brand mark credible and expertly made.",
      "I doubt that I am going to find this brand mark credible and expertly made.",
      "I am not sure whether I am going to find this brand mark credible and expertly made.",
      "It is likely that I am going to find this brand mark credible and expertly made.",
      "I am absolutely going to find this brand mark credible and expertly made.",
    ],
    [
      "No way would this logo make the company look established to me.",
      "This logo probably would not make the company look established to me.",
      "I am on the fence about whether this logo would make the company look established to me.",
      "Chances are this logo would make the company look established to me.",
      "This logo would certainly make the company look established to me.",
    ],
  ],
  framing: {
    question: "As a brand mark, how professional and established does this logo make the company look?",
    comparison: "makes the company look more professional and established",
  },
  simProfile: { action: "see this logo as professional", label: "a professional look", weights: CRAFT, copyShare: 0.1 },
};
