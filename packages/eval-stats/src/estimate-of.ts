import type { Estimate } from "@adrank/contracts";
import type { Interval } from "./bootstrap-interval.ts";

// Figures leave this package rounded to 4 decimals: the bootstrap's own Monte Carlo error is
// far above 1e-4, and rounding makes the JSON of the same data byte-stable (no 17-digit
// last-bit noise between the API, the console and `adrank eval`). Rounding is monotone, so
// ci_low <= value <= ci_high survives it. Nothing is rounded inside the computations.

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000 + 0;

/** A figure with its interval, or null when either is undefined (an interval-less number would look surer than it is). */
export function estimateOf(value: number | null, interval: Interval | null): Estimate | null {
  if (value === null || interval === null) return null;
  return { value: round4(value), ci_low: round4(interval.low), ci_high: round4(interval.high) };
}
