const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A JSON value as a TypeScript object literal, laid out as prettier would (two spaces, keys
 * unquoted where they may be). `code` maps values to source text printed in their place,
 * e.g. a data URI to the call that reads the image file.
 *
 * @example tsLiteral({ goal: "open-rate" }) // '{\n  goal: "open-rate",\n}'
 */
export function tsLiteral(value: unknown, code: ReadonlyMap<unknown, string> = new Map(), indent = ""): string {
  const replaced = code.get(value);
  if (replaced !== undefined) return replaced;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${tsLiteral(v, code, inner)},\n`).join("")}${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${tsLiteral(v, code, inner)},\n`).join("")}${indent}}`;
  }
  return JSON.stringify(value);
}
