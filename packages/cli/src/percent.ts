/**
 * A probability as a whole percentage, "71 %". A probability that is not 0 or 1 never reads
 * "0 %" or "100 %": it shows "<1 %" or ">99 %", since a rounded certainty would claim more
 * than the answer knows.
 *
 * @example
 * percent(0.714); // "71 %"
 * percent(0.998); // ">99 %"
 */
export function percent(p: number): string {
  const whole = Math.round(p * 100);
  if (whole >= 100 && p < 1) return ">99 %";
  if (whole <= 0 && p > 0) return "<1 %";
  return `${whole} %`;
}

/** A 95 % interval of a share, both ends rounded to whole percent: "36–96 %". */
export const percentRange = (low: number, high: number): string => `${Math.round(low * 100)}–${Math.round(high * 100)} %`;
