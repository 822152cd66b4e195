/** A Kubernetes label selector (matchLabels and matchExpressions). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: "In" | "NotIn" | "Exists" | "DoesNotExist"; values?: string[] }[];
}

/** Whether `labels` are selected, with the API server's rules: an empty selector selects all. */
export function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case "In":
        return key in labels && values.includes(labels[key]!);
      case "NotIn":
        return !(key in labels) || !values.includes(labels[key]!);
      case "Exists":
        return key in labels;
      case "DoesNotExist":
        return !(key in labels);
      default: {
        const unknown: never = operator;
        throw new Error(`unknown selector operator ${String(unknown)}`);
      }
    }
  });
  return byLabel && byExpression;
}
