/**
 * The fields of a request body that carry one setting, in words: every leaf as
 * `path.to.field=value`, in the order the body has them, joined by ", ". Null when there are
 * none. Built from the very object that goes into the body, so the words cannot drift from it.
 *
 * @example
 * sentSettingStatement({ thinking: { type: "enabled", budget_tokens: 2048 } }); // "thinking.type=enabled, thinking.budget_tokens=2048"
 * sentSettingStatement({}); // null
 */
export function sentSettingStatement(fields: object | undefined): string | null {
  if (fields === undefined) return null;
  const parts: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) if (inner !== undefined) walk(inner, path ? `${path}.${key}` : key);
      return;
    }
    parts.push(`${path}=${Array.isArray(value) ? JSON.stringify(value) : String(value)}`);
  };
  walk(fields, "");
  return parts.length > 0 ? parts.join(", ") : null;
}
