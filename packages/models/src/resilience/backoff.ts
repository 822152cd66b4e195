/**
 * Exponential backoff with full jitter: a uniform draw between 0 and min(cap, base * 2^retry).
 * Spreading retries over the whole window keeps many clients that failed together from
 * retrying together. `retry` is 0 for the first retry.
 */
export function fullJitterDelayMs(retry: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** retry);
  return Math.floor(Math.min(0.999_999, Math.max(0, random())) * ceiling);
}
