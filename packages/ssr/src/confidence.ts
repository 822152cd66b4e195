export type ConfidenceLabel = "high" | "medium" | "low";

export interface ConfidenceSignals {
  sampleStdDev: number;
  topMargin: number;
  entropy: number;
}

/** DESIGN's thresholds ("Contract decisions: confidence label"). */
export const CONFIDENCE_THRESHOLDS = {
  highMaxStdDev: 0.15,
  highMinTopMargin: 0.1,
  lowMinStdDev: 0.35,
  lowMinEntropy: 0.95,
} as const;

// The signals are sums of floats: a std dev that is 0.15 on paper may arrive as
// 0.15000000000000002. A value within this distance of a threshold counts as on it, so a
// user who reads "0.15" in the response sees the label the documented rule gives.
const ON_THRESHOLD = 1e-9;

/**
 * The confidence label of one evaluation.
 *   low:    sample_std_dev > 0.35 or entropy > 0.95
 *   high:   sample_std_dev <= 0.15 and top_margin >= 0.10
 *   medium: otherwise
 * "low" is checked first: when both rules hold (steady repetitions and a clear leading
 * level, yet a near-flat distribution) the sign of indecision wins, because a label that
 * overstates certainty costs a user more than one that understates it.
 *
 * @example
 * confidenceLabel({ sampleStdDev: 0.1, topMargin: 0.2, entropy: 0.6 }); // "high"
 */
export function confidenceLabel({ sampleStdDev, topMargin, entropy }: ConfidenceSignals): ConfidenceLabel {
  const t = CONFIDENCE_THRESHOLDS;
  if (sampleStdDev > t.lowMinStdDev + ON_THRESHOLD || entropy > t.lowMinEntropy + ON_THRESHOLD) return "low";
  if (sampleStdDev <= t.highMaxStdDev + ON_THRESHOLD && topMargin >= t.highMinTopMargin - ON_THRESHOLD) return "high";
  return "medium";
}
