// Reading one cell of a dataset row. CSV cells are strings ("" when empty); JSON Lines values
// are whatever the line holds. Each reader returns the value, null for an empty cell, or a
// sentence saying what is wrong (the caller adds the file and line).

export type Cell<T> = { value: T | null } | { problem: string };

/** Text: a string (trimmed), or a number in JSON Lines; empty, null or absent is null. */
export function textCell(fields: Record<string, unknown>, column: string): Cell<string> {
  const raw = fields[column];
  if (raw === undefined || raw === null) return { value: null };
  if (typeof raw === "number" && Number.isFinite(raw)) return { value: String(raw) };
  if (typeof raw !== "string") return { problem: `${column} must be text, not ${describe(raw)}` };
  const text = raw.trim();
  return { value: text === "" ? null : text };
}

// A plain decimal, as a spreadsheet writes it: no hex, no "Infinity", no thousands separators.
// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: that one splits a run of digits every way before it fails (quadratic).
export const DECIMAL = /^[+-]?(\d+(?:\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** A finite number: a JSON number, or text holding a decimal. */
export function numberCell(fields: Record<string, unknown>, column: string): Cell<number> {
  const raw = fields[column];
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return { value: null };
  if (typeof raw === "number") return Number.isFinite(raw) ? { value: raw } : { problem: `${column} must be a finite number` };
  if (typeof raw !== "string") return { problem: `${column} must be a number, not ${describe(raw)}` };
  const text = raw.trim();
  const percent = text.endsWith("%") && DECIMAL.test(text.slice(0, -1));
  if (!DECIMAL.test(text)) return { problem: `${column} "${text}" is not a number${percent ? ` (write ${text} as ${text.slice(0, -1)} or ${Number(text.slice(0, -1)) / 100})` : ""}` };
  const value = Number(text);
  return Number.isFinite(value) ? { value } : { problem: `${column} "${text}" is too large to be a finite number` };
}

/** A JSON Lines object of strings (the `copy` key); null when absent or empty. */
export function stringMapCell(fields: Record<string, unknown>, column: string): Cell<Record<string, string>> {
  const raw = fields[column];
  if (raw === undefined || raw === null) return { value: null };
  if (typeof raw !== "object" || Array.isArray(raw)) return { problem: `${column} must be an object of copy_context keys and texts, such as {"adHeadline": "…"}` };
  const entries = Object.entries(raw as Record<string, unknown>);
  const bad = entries.find(([, v]) => typeof v !== "string");
  if (bad) return { problem: `${column}.${bad[0]} must be text, not ${describe(bad[1])}` };
  const kept = entries.filter(([, v]) => (v as string).trim() !== "") as Array<[string, string]>;
  return { value: kept.length > 0 ? Object.fromEntries(kept) : null };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "number") return `the number ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}
