/**
 * The number of single-character edits (insert, delete, substitute, or swap two neighbours)
 * that turn `a` into `b`: the optimal-string-alignment distance. A swap counts once because
 * "purhcase" is one slip of the fingers, not two.
 *
 * @example
 * editDistance("purchse-intent", "purchase-intent"); // 1
 * editDistance("--jsno", "--json"); // 1
 */
export function editDistance(a: string, b: string): number {
  // Three rows suffice: the current one, the previous one, and the one before for swaps.
  let beforePrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, beforePrev[j - 2]! + 1);
      row.push(best);
    }
    beforePrev = prev;
    prev = row;
  }
  return prev[b.length]!;
}
