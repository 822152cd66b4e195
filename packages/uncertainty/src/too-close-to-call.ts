/** The lowest probability still called too close: below it the lower asset is favoured. */
export const TOO_CLOSE_LOW = 0.4;
/** The highest probability still called too close: above it the upper asset is favoured. */
export const TOO_CLOSE_HIGH = 0.6;

/**
 * Whether an order probability is too close to call: TOO_CLOSE_LOW ≤ p ≤ TOO_CLOSE_HIGH
 * (both bounds included). False for null, which means "nothing measured", not "even".
 *
 * @example
 * tooCloseToCall(0.55); // true
 */
export function tooCloseToCall(p: number | null): boolean {
  return p !== null && p >= TOO_CLOSE_LOW && p <= TOO_CLOSE_HIGH;
}
