/**
 * Every pair of audiences once, earlier first, in the request's order: with three audiences
 * (0, 1), (0, 2), (1, 2).
 */
export function audiencePairs(count: number): Array<readonly [number, number]> {
  const pairs: Array<readonly [number, number]> = [];
  for (let x = 0; x < count; x++) for (let y = x + 1; y < count; y++) pairs.push([x, y]);
  return pairs;
}
