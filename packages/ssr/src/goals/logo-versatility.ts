import type { GoalKnowledge } from "./goal-knowledge.ts";
import { CRAFT } from "./sim-visual-weights.ts";

export const LOGO_VERSATILITY: GoalKnowledge = {
  anchorSets: [
    [
      "I would definitely not expect this logo to work at every size and on every background.",
      "I probably would not expect this logo to work at every size and on every background.",
      "I am not sure whether this logo would work at every size and on every background.",
      "I would probably expect this logo to work at every size and on every background.",
      "I would definitely expect this logo to work at every size and on every background.",
    ],
    [
      "There is no way I would find this mark legible as a tiny app icon or favicon.",
      "It is unlikely that I would find this mark legible as a tiny app icon or favicon.",
      "I am undecided about whether I would find this mark legible as a tiny app icon or favicon.",
      "It is likely that I would find this mark legible as a tiny app icon or favicon.",
      "I would certainly find this mark legible as a tiny app icon or favicon.",
    ],
    [
      "I would never expect this logo to hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "I doubt that this logo would hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "I am on the fence about whether this logo holds up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "Chances are I would see this logo hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
      "I would absolutely expect this logo to hold up in one colour, on dark and light backgrounds, from a stamp to a billboard.",
    ],
    [
      "I will never trust this logo to stay crisp when shrunk or printed in a single colour.",
      "It is unlikely that I will trust this logo to stay crisp when shrunk or printed in a single colour.",
      "I am undecided about whether I will trust this logo to stay crisp when shrunk or printed in a single colour.",
      "I will probably trust this logo to stay crisp when shrunk or printed in a single colour.",
      "I will definitely trust this logo to stay crisp when shrunk or printed in a single colour.",
    ],
    [
      "I am definitely not going to see this emblem stay readable from a business card to a storefront sign.",
      "I doubt that I am going to see this emblem stay readable from a business card to a storefront sign.",
      "I am not sure whether I am going to see this emblem stay readable from a business card to a storefront sign.",
      "It is likely that I am going to see this emblem stay readable from a business card to a storefront sign.",
      "I am absolutely going to see this emblem stay readable from a business card to a storefront sign.",
    ],
    [
      "No way would I rely on this mark to adapt to any medium, size or backdrop.",
      "I probably would not rely on this mark to adapt to any medium, size or backdrop.",
      "I am on the fence about whether I would rely on this mark to adapt to any medium, size or backdrop.",
      "Chances are I would rely on this mark to adapt to any medium, size or backdrop.",
      "I would certainly rely on this mark to adapt to any medium, size or backdrop.",
    ],
  ],
  framing: {
    question: "How well would this logo work everywhere: as a tiny app icon, in one colour, on dark and light backgrounds, and on a billboard?",
    comparison: "would work better at every size, in one colour and on any background",
  },
  simProfile: { action: "see this logo working everywhere it is used", label: "versatility", weights: CRAFT, copyShare: 0.1 },
};
