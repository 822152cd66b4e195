// Every goal of the contract needs its anchor sets, framing and sim profile in ssr's goal
// table. The table's type already demands them; this catches what a type cannot: a table
// loosened with a cast, an empty string or set, or a key that is no goal. Imported by file
// path so the check loads the vocabulary and the table alone, not the packages' indexes.
import { GOALS } from "../../packages/contracts/src/vocabulary.ts";
import { GOAL_TABLE } from "../../packages/ssr/src/goals/goal-table.ts";

const TABLE_FILE = "packages/ssr/src/goals/goal-table.ts";
const VISUAL_WEIGHTS = ["exposure", "contrast", "colour", "sharpness", "composition"] as const;

type Fields = Readonly<Record<string, unknown>>;

const fieldsOf = (value: unknown): Fields => (typeof value === "object" && value !== null ? (value as Fields) : {});
const isText = (value: unknown) => typeof value === "string" && value.trim() !== "";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);

/** At least one reference set, each of five non-empty statements. */
const hasAnchorSets = (sets: unknown) => Array.isArray(sets) && sets.length > 0 && sets.every((set) => Array.isArray(set) && set.length === 5 && set.every(isText));

const hasFraming = (framing: unknown) => isText(fieldsOf(framing).question) && isText(fieldsOf(framing).comparison);

function hasSimProfile(profile: unknown): boolean {
  const { action, label, weights, copyShare } = fieldsOf(profile);
  return isText(action) && isText(label) && isNumber(copyShare) && VISUAL_WEIGHTS.every((w) => isNumber(fieldsOf(weights)[w]));
}

function missingParts(entry: unknown): string[] {
  const { anchorSets, framing, simProfile } = fieldsOf(entry);
  return [...(hasAnchorSets(anchorSets) ? [] : ["anchor sets"]), ...(hasFraming(framing) ? [] : ["framing"]), ...(hasSimProfile(simProfile) ? [] : ["sim profile"])];
}

/**
 * One sentence per gap in the goal table: a goal without an entry, an entry without anchor
 * sets, framing or sim profile, and a key that is no goal. Empty when complete. The table and
 * goals are the real ones unless a test passes its own.
 *
 * @example
 * findGoalTableGaps({ "purchase-intent": GOAL_TABLE["purchase-intent"] }, ["purchase-intent", "open-rate"]);
 * // ['packages/ssr/src/goals/goal-table.ts: goal "open-rate" has no entry']
 */
export function findGoalTableGaps(table: Fields = GOAL_TABLE, goals: readonly string[] = GOALS): string[] {
  const out: string[] = [];
  for (const goal of goals) {
    if (!Object.hasOwn(table, goal)) {
      out.push(`${TABLE_FILE}: goal "${goal}" has no entry`);
      continue;
    }
    const missing = missingParts(table[goal]);
    if (missing.length > 0) out.push(`${TABLE_FILE}: goal "${goal}" has no ${missing.join(", no ")}`);
  }
  for (const key of Object.keys(table)) {
    if (!goals.includes(key)) out.push(`${TABLE_FILE}: "${key}" is not a goal of packages/contracts/src/vocabulary.ts`);
  }
  return out;
}
