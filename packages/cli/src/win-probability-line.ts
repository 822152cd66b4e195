import type { WinProbability } from "@adrank/sdk";
import { printable } from "./models-note.ts";
import { percent, percentRange } from "./percent.ts";

/**
 * A panel's preference with its uncertainty, in one line: "a.png preferred by 71 % of voters
 * (95 % interval 36–96 %), P(majority prefers a.png) 89 %". Null when the server sent none (no
 * vote counted, or a server older than the field).
 */
export function winProbabilityLine(wp: WinProbability | null | undefined): string | null {
  if (!wp) return null;
  const id = printable(wp.asset_id);
  return `${id} preferred by ${percent(wp.value)} of voters (95 % interval ${percentRange(wp.ci_low, wp.ci_high)}), P(majority prefers ${id}) ${percent(wp.p_better)}`;
}
