import type { ReliabilityBin } from "@adrank/sdk";
import { percent, percentRange } from "./percent.ts";

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length));
const share = (p: number | null) => (p === null ? "–" : percent(p));

/**
 * The reliability table of P>next for one calibration group: per bin of the probability the
 * answers gave neighbouring pairs, how many pairs fell in it, their mean probability, the share
 * the outcomes ordered that way and its 95 % interval. Calibrated probabilities have `observed`
 * close to `mean p`. Empty bins show "–". One line instead of a table when no pair counts yet;
 * no lines at all for a server older than the table.
 *
 * @example
 * reliabilityLines([{ p_low: 0.5, p_high: 0.6, n_pairs: 8, mean_p: 0.55, observed: 0.5, ci_low: 0.22, ci_high: 0.78 }, …], "all goals")
 * // ["reliability of P>next, all goals: 8 pairs", "P>next   pairs  mean p  observed  95 % interval", …, "50–60 %  8      55 %    50 %      22–78 %", …]
 */
export function reliabilityLines(bins: readonly ReliabilityBin[] | undefined, label: string): string[] {
  if (!bins || bins.length === 0) return [];
  const pairs = bins.reduce((n, b) => n + b.n_pairs, 0);
  if (pairs === 0) return [`reliability of P>next, ${label}: no pairs yet (only outcomes of rankings answered with P>next count)`];
  const header = ["P>next", "pairs", "mean p", "observed", "95 % interval"];
  const rows = bins.map((b) => [
    percentRange(b.p_low, b.p_high),
    String(b.n_pairs),
    share(b.mean_p),
    share(b.observed),
    b.ci_low === null || b.ci_high === null ? "–" : percentRange(b.ci_low, b.ci_high),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join("  ").trimEnd();
  return [`reliability of P>next, ${label}: ${pairs} neighbouring ${pairs === 1 ? "pair" : "pairs"}`, line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}
