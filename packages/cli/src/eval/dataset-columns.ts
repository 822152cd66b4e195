import { closestMatch } from "../suggestion.ts";

// The columns of an eval dataset (CSV header names, or JSON Lines keys). A file holds either
// outcome rows or labelled pair rows; the group columns go with both.

/** CSV copy columns and the copy_context key each one fills. */
export const COPY_COLUMNS = { headline: "adHeadline", body: "adBody", caption: "adCaption", description: "adDescription", page_name: "pageName" } as const;

export const GROUP_COLUMNS = ["campaign", "audience", "audience_id", "goal"] as const;
export const OUTCOME_COLUMNS = ["image", "outcome", "id", ...Object.keys(COPY_COLUMNS), "copy"] as const;
export const PAIR_COLUMNS = ["image_a", "image_b", "winner"] as const;

const KNOWN: readonly string[] = [...OUTCOME_COLUMNS, ...PAIR_COLUMNS, ...GROUP_COLUMNS];
const OUTCOME_ONLY = new Set<string>(OUTCOME_COLUMNS);
const PAIR_ONLY = new Set<string>(PAIR_COLUMNS);

export type DatasetKind = "outcomes" | "pairs";

/**
 * Why the named columns cannot be read, or null when they can. An unknown column is refused
 * rather than ignored: a typo such as `outcom` would otherwise drop the data it holds.
 */
export function unknownColumnsProblem(columns: string[]): string | null {
  const unknown = columns.filter((c) => !KNOWN.includes(c));
  if (unknown.length === 0) return null;
  const named = unknown.map((c) => (c === "" ? "an unnamed column" : `"${c}"`)).join(", ");
  const hints = unknown.map((c) => [c, closestMatch(c, KNOWN)] as const).filter(([, m]) => m !== null);
  const hint = hints.length > 0 ? `; did you mean ${hints.map(([c, m]) => `"${m}" for "${c}"`).join(", ")}?` : "";
  return `unknown ${unknown.length === 1 ? "column" : "columns"} ${named}${hint === "" ? "." : hint} Known columns: outcome rows ${OUTCOME_COLUMNS.join(", ")}; pair rows ${PAIR_COLUMNS.join(", ")}; both ${GROUP_COLUMNS.join(", ")}`;
}

/** Which kind of row these columns make, or a sentence saying why they make neither. */
export function kindOfColumns(columns: string[]): DatasetKind | string {
  const outcome = columns.filter((c) => OUTCOME_ONLY.has(c));
  const pair = columns.filter((c) => PAIR_ONLY.has(c));
  if (outcome.length > 0 && pair.length > 0) {
    return `mixes outcome columns (${outcome.join(", ")}) with pair columns (${pair.join(", ")}); a dataset holds either outcome rows (image, outcome) or labelled pairs (image_a, image_b, winner): put them in two files`;
  }
  if (pair.length > 0) return "pairs";
  if (outcome.length > 0) return "outcomes";
  return "has neither outcome columns (image, outcome) nor pair columns (image_a, image_b, winner)";
}
