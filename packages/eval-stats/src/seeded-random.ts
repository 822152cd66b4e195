// Bootstrap intervals must be reproducible: the same data asked twice (a console reload, a
// re-run of `adrank eval`) must show the same interval, so resampling never uses Math.random.

/** The seed used when the caller gives none: any constant works, it only has to stay fixed. */
export const DEFAULT_SEED = 19;

/**
 * A deterministic generator of uniform numbers in [0, 1) (mulberry32: 32-bit state, fast,
 * statistically good enough for resampling indices).
 *
 * @example
 * const random = seededRandom(7);
 * const index = Math.floor(random() * items.length);
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
