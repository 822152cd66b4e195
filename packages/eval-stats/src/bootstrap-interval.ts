import { quantileSorted } from "simple-statistics";

// Rank figures have no simple closed-form interval once scores tie and points cluster in
// rankings, so their uncertainty is read off the data itself: the percentile bootstrap.

export interface BootstrapOptions {
  resamples: number;
  /** Uniform numbers in [0, 1): pass seededRandom(seed) for reproducible intervals. */
  random: () => number;
  /** Coverage of the interval, 0.95 by default. */
  level?: number;
  /**
   * Called between resamples (every CHECKPOINT_EVERY): it may throw to stop the bootstrap, e.g.
   * when its caller's deadline has passed. The work is synchronous, so this is the only way in.
   */
  checkpoint?: () => void;
}

/** Resamples between two checkpoints: often enough to stop within milliseconds, rarely enough to cost nothing. */
const CHECKPOINT_EVERY = 16;

export interface Interval {
  low: number;
  high: number;
}

/**
 * Stratified percentile bootstrap: each resample draws, inside every stratum, as many items as
 * the stratum holds, with replacement, and computes the statistic; the interval is the
 * (1 - level) / 2 and 1 - (1 - level) / 2 quantiles (type 7) of those values. Strata keep
 * their size, so a large ranking cannot crowd out a small one, and pairs stay inside their
 * ranking. Resamples where the statistic is undefined (null) are skipped; null when all are.
 *
 * For speed the sample handed to `statistic` is one set of arrays refilled for every
 * resample: read it, do not keep it.
 *
 * @example
 * const ci = bootstrapInterval([[1, 0, 1, 1]], ([s]) => mean(s!), { resamples: 1000, random: seededRandom(1) });
 */
export function bootstrapInterval<T>(strata: readonly (readonly T[])[], statistic: (sample: readonly (readonly T[])[]) => number | null, opts: BootstrapOptions): Interval | null {
  return bootstrapIntervals(strata, (sample) => [statistic(sample)], opts)[0] ?? null;
}

/**
 * The same for several statistics computed together on each resample (so they can share
 * work, and all are read off the same resamples): one interval per value the statistic returns.
 */
export function bootstrapIntervals<T>(strata: readonly (readonly T[])[], statistics: (sample: readonly (readonly T[])[]) => readonly (number | null)[], opts: BootstrapOptions): Array<Interval | null> {
  const level = opts.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrap level must be between 0 and 1, got ${level}`);
  if (!Number.isInteger(opts.resamples) || opts.resamples < 1) throw new RangeError(`bootstrap resamples must be a positive integer, got ${opts.resamples}`);
  const sample: T[][] = strata.map((s) => new Array<T>(s.length));
  const values: Float64Array[] = [];
  const defined: number[] = [];
  for (let r = 0; r < opts.resamples; r++) {
    if (r % CHECKPOINT_EVERY === 0) opts.checkpoint?.();
    for (let s = 0; s < strata.length; s++) {
      const from = strata[s]!;
      const into = sample[s]!;
      for (let i = 0; i < from.length; i++) into[i] = from[Math.floor(opts.random() * from.length)]!;
    }
    const results = statistics(sample);
    for (let k = 0; k < results.length; k++) {
      const value = results[k];
      values[k] ??= new Float64Array(opts.resamples);
      defined[k] ??= 0;
      if (value != null && Number.isFinite(value)) values[k]![defined[k]!++] = value;
    }
  }
  const tail = (1 - level) / 2;
  return values.map((v, k) => {
    if (defined[k] === 0) return null;
    const sorted = Array.from(v.subarray(0, defined[k]).sort());
    return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
  });
}
