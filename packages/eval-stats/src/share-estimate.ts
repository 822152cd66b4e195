import type { Estimate } from "@adrank/contracts";
import { CALIBRATION_RESAMPLES } from "@adrank/contracts";
import { bootstrapInterval } from "./bootstrap-interval.ts";
import { estimateOf } from "./estimate-of.ts";
import { DEFAULT_SEED, seededRandom } from "./seeded-random.ts";

export interface ShareOptions {
  /** CALIBRATION_RESAMPLES by default. */
  resamples?: number;
  /** DEFAULT_SEED by default: the same outcomes give the same interval. */
  seed?: number;
  /** 0.95 by default. */
  level?: number;
}

const shareOf = (xs: readonly boolean[]): number => {
  let yes = 0;
  for (const x of xs) if (x) yes++;
  return yes / xs.length;
};

/**
 * The share of true outcomes (e.g. labelled pairs where the panel picked the labelled winner)
 * with a bootstrap interval, computed like every other figure so that they read alike.
 * Null for no outcomes.
 *
 * @example
 * shareEstimate([true, true, false, true]); // { value: 0.75, ci_low: 0.25, ci_high: 1 }
 */
export function shareEstimate(outcomes: readonly boolean[], opts: ShareOptions = {}): Estimate | null {
  if (outcomes.length === 0) return null;
  const interval = bootstrapInterval([outcomes], ([sample]) => shareOf(sample!), {
    resamples: opts.resamples ?? CALIBRATION_RESAMPLES,
    random: seededRandom(opts.seed ?? DEFAULT_SEED),
    ...(opts.level === undefined ? {} : { level: opts.level }),
  });
  return estimateOf(shareOf(outcomes), interval);
}
