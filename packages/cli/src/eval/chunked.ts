/**
 * Items dealt into as few lists of at most `max` as will hold them: item i goes to list i mod k.
 * Dealt rather than cut, so that a file sorted by outcome does not put all the best creatives
 * into one ranking, and the lists differ by one item at most.
 *
 * @example
 * chunked([1, 2, 3, 4, 5], 2); // [[1, 4], [2, 5], [3]]
 */
export function chunked<T>(items: readonly T[], max: number): T[][] {
  const k = Math.ceil(items.length / max);
  const chunks: T[][] = Array.from({ length: k }, () => []);
  items.forEach((item, i) => chunks[i % k]!.push(item));
  return chunks;
}
