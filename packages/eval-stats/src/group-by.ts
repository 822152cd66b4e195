// Points arrive flat (rows of a table, lines of a file) and are read per ranking, goal or metric.

/** Items by key, keys in first-seen order, items in input order. */
export function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
