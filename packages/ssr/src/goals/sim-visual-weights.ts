// The sim's visual weightings a goal picks from. Goals shift what matters: attention goals
// reward contrast and colour, trust and craft goals reward clean composition and detail.
// Response goals lean more on the copy through their profile's copy share instead.
import type { VisualWeights } from "./goal-knowledge.ts";

export const BALANCED: VisualWeights = { exposure: 1, contrast: 1, colour: 0.7, sharpness: 1, composition: 1.2 };
export const ATTENTION: VisualWeights = { exposure: 1, contrast: 1.4, colour: 1.3, sharpness: 0.9, composition: 1 };
export const TRUST: VisualWeights = { exposure: 1, contrast: 0.8, colour: 0.4, sharpness: 1.2, composition: 1.6 };
export const CRAFT: VisualWeights = { exposure: 0.8, contrast: 1.2, colour: 0.5, sharpness: 1.3, composition: 1.6 };
