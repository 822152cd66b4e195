import type { ModelReceipt, RankUncertainty, WinProbability } from "./answers.ts";

// How sure an answer is (issue 34), put in words a marketer reads without the API reference open.

/** The band of p_above_next inside which a neighbouring pair is too close to call (TOO_CLOSE_TO_CALL in the contract). */
export const TOO_CLOSE = { low: 0.4, high: 0.6 } as const;

/**
 * A probability as a whole percentage, "71 %"; one that is not 0 or 1 never reads as a
 * certainty: ">99 %" or "<1 %".
 */
export function chanceText(p: number): string {
  const whole = Math.round(p * 100);
  if (whole >= 100 && p < 1) return ">99 %";
  if (whole <= 0 && p > 0) return "<1 %";
  return `${whole} %`;
}

/** An interval's end as a whole percentage that, like chanceText, never reads as a certainty it is not. */
const boundText = (p: number): number => Math.min(p < 1 ? 99 : 100, Math.max(p > 0 ? 1 : 0, Math.round(p * 100)));

/** "36–96 %": a 95 % interval of a share, ends in whole percent (0.9958 is 99, not 100). */
export const rangeText = (low: number, high: number): string => `${boundText(low)}–${boundText(high)} %`;

/** "88 % chance it truly outranks #2", or null for the last image and from a server older than the figure. */
export function aboveNextText(p: number | null | undefined, rank: number): string | null {
  return typeof p === "number" ? `${chanceText(p)} chance it truly outranks #${rank + 1}` : null;
}

export const TOO_CLOSE_HELP = `The chance it outranks the next image is between ${chanceText(TOO_CLOSE.low)} and ${chanceText(TOO_CLOSE.high)}: the two are a coin toss, so do not read their order as a preference.`;

/** "1 of 2 neighbouring pairs are too close to call: …", or null when none is or the server does not say. */
export function tooCloseSummary(u: RankUncertainty | undefined): string | null {
  if (!u || !(u.too_close_to_call > 0)) return null;
  const pairs = u.adjacent_pairs === 1 ? "neighbouring pair is" : "neighbouring pairs are";
  return `${u.too_close_to_call} of ${u.adjacent_pairs} ${pairs} too close to call (a ${chanceText(TOO_CLOSE.low)}–${chanceText(TOO_CLOSE.high)} chance of being in the right order).`;
}

/** "summer.png preferred by 71 % of voters (95 % interval 36–96 %); 89 % chance a majority prefers it.", or null without figures. */
export function winProbabilityText(wp: WinProbability | null | undefined): string | null {
  if (!wp) return null;
  return `${wp.asset_id} preferred by ${chanceText(wp.value)} of voters (95 % interval ${rangeText(wp.ci_low, wp.ci_high)}); ${chanceText(wp.p_better)} chance a majority prefers it.`;
}

/** "reported gpt-5-mini-2025-08-07 · temperature 1 · thinking reasoning_effort=low": one model's part of the receipt. */
export function modelSettingsText(m: ModelReceipt): string {
  return [
    m.versions.length > 0 ? `reported ${m.versions.join(", ")}` : "no version reported",
    m.temperature === null ? "no temperature sent" : `temperature ${m.temperature}`,
    m.thinking === null ? "no thinking control sent" : `thinking ${m.thinking}`,
  ].join(" · ");
}
