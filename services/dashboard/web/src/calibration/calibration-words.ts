import type { CalibrationGroup, Estimate } from "./calibration-api.ts";

/** "All goals" for the pooled row, the goal's own name otherwise. */
export const groupLabel = (goal: string | null): string => goal ?? "All goals";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "12 outcomes · 3 requests · 40 pairs": what a group's figures rest on. */
export function countsText(g: Pick<CalibrationGroup, "n_outcomes" | "n_requests" | "n_pairs">): string {
  return [plural(g.n_outcomes, "outcome", "outcomes"), plural(g.n_requests, "request", "requests"), plural(g.n_pairs, "pair", "pairs")].join(" · ");
}

/**
 * Why a group has no figures, or null when it has them. Below the minimum it says how many
 * outcomes there are and how many are needed; with enough outcomes but no pair (every ranking
 * has one outcome, or its outcomes are all equal) it says that instead.
 */
export function notEnoughDataText(g: Pick<CalibrationGroup, "enough_data" | "n_outcomes" | "n_pairs">, minOutcomes: number): string | null {
  if (g.enough_data) return null;
  if (g.n_outcomes < minOutcomes) return `Not enough data: ${g.n_outcomes} of ${minOutcomes} outcomes needed.`;
  if (g.n_pairs === 0) return "Not enough data: no two outcomes of the same ranking differ, so there is no pair to compare.";
  return "Not enough data for figures.";
}

/** A correlation to two decimals with a true minus sign: "0.42", "−0.08". */
export const correlationText = (value: number): string => `${value < 0 ? "−" : ""}${Math.abs(value).toFixed(2)}`;

/** A share as a whole percentage: 0.714 → "71 %". */
export const percentText = (value: number): string => `${Math.round(value * 100)} %`;

/** "0.10 to 0.70": a 95 % interval in the figure's own format. */
export const intervalText = (e: Estimate, format: (v: number) => string): string => `${format(e.ci_low)} to ${format(e.ci_high)}`;

/** Whether the interval lies wholly above `chance`, wholly below it, or straddles it. */
export function versusChance(e: Estimate, chance: number): "above" | "below" | "unclear" {
  if (e.ci_low > chance) return "above";
  if (e.ci_high < chance) return "below";
  return "unclear";
}

/** One sentence on what the final pairwise agreement says, with its interval read against chance (0.5). */
export function agreementVerdict(e: Estimate): string {
  const share = percentText(e.value);
  switch (versusChance(e, 0.5)) {
    case "above":
      return `The scores ordered ${share} of pairs the way the outcomes did; the whole interval is above chance (50 %).`;
    case "below":
      return `The scores ordered only ${share} of pairs the way the outcomes did; the whole interval is below chance (50 %): they ran against the outcomes.`;
    default:
      return `The scores ordered ${share} of pairs the way the outcomes did, but the interval includes chance (50 %): no evidence yet either way.`;
  }
}
