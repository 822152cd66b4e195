import { ASSET_TYPES, GOALS } from "@adrank/sdk";
import { closestMatch } from "./suggestion.ts";
import { UsageError } from "./usage-error.ts";

/**
 * Refuses a value outside one of the spec's closed lists before anything is read or sent (a
 * typo would otherwise cost an upload and a 422), suggesting the value that was meant, or
 * listing them all when none is close.
 */
function checkClosedList(noun: string, value: string | undefined, list: readonly string[]): void {
  if (value === undefined || list.includes(value)) return;
  const match = closestMatch(value, list);
  if (match !== null) throw new UsageError(`unknown ${noun} "${value}"; did you mean "${match}"?`, { seeHelp: false });
  throw new UsageError(`unknown ${noun} "${value}"; one of ${list.map((v) => (v.includes(" ") ? `"${v}"` : v)).join(", ")}`, { seeHelp: false });
}

/** --goal: one of GOALS, e.g. purchase-intent. */
export const checkGoal = (goal: string | undefined) => checkClosedList("goal", goal, GOALS);

/** --asset-type: one of ASSET_TYPES, e.g. "Social Media Post". */
export const checkAssetType = (assetType: string | undefined) => checkClosedList("asset type", assetType, ASSET_TYPES);
