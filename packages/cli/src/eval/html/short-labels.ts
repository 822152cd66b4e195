const SEPARATOR = " / ";

/**
 * Group labels ("campaign / audience / goal", see groupLabel) for a narrow plot: the parts
 * every group shares (often the audience) are left out, since they tell no row apart. The
 * full label stays in the tables and in each plot row's tooltip. Only cosmetic: a name that
 * itself holds " / " just splits differently.
 *
 * @example
 * shortLabels(["spring / Runners / engagement", "autumn / Runners / engagement"]); // ["spring", "autumn"]
 */
export function shortLabels(labels: readonly string[]): string[] {
  // From the right: the goal is last, the audience before it, the campaign (if any) before that.
  const parts = labels.map((label) => {
    const all = label.split(SEPARATOR);
    const goal = all.pop() ?? "";
    const audience = all.pop() ?? "";
    return [all.length > 0 ? all.join(SEPARATOR) : null, audience, goal];
  });
  const varies = [0, 1, 2].map((i) => new Set(parts.map((p) => p[i])).size > 1);
  if (!varies.some(Boolean)) return [...labels];
  return parts.map((p) =>
    p
      .map((part, i) => (i === 0 && part === null ? "no campaign" : part))
      .filter((_, i) => varies[i])
      .join(SEPARATOR),
  );
}
