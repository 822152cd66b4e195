/**
 * JSON with object keys in sorted order and no white space: two bodies that mean the same
 * (keys reordered, spaces added) give the same text, so an Idempotency-Key compares
 * meaning, not formatting. Arrays keep their order: it is part of the meaning.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}
