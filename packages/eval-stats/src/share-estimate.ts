import type { Estimate } from "@adrank/contracts";
import { estimateOf } from "./estimate-of.ts";

/** The 97.5th percentile of the standard normal: a two-sided 95 % interval. */
const Z_95 = 1.959963984540054;

/**
 * The share of true outcomes (e.g. labelled pairs where the panel picked the labelled winner)
 * with its 95 % Wilson score interval. The outcomes are independent yes/no trials, so this is
 * the textbook binomial interval; a bootstrap would collapse to [1, 1] when all ten of ten
 * agree, claiming a certainty ten trials cannot give (Wilson gives [0.72, 1]). Null for none.
 *
 * @example
 * shareEstimate([true, true, false, true]); // { value: 0.75, ci_low: 0.3006, ci_high: 0.9544 }
 */
export function shareEstimate(outcomes: readonly boolean[]): Estimate | null {
  const n = outcomes.length;
  if (n === 0) return null;
  const p = outcomes.filter(Boolean).length / n;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return estimateOf(p, { low: Math.max(0, centre - half), high: Math.min(1, centre + half) });
}
