import { longDay } from "../ui/format-date.ts";
import type { DailyUsage } from "./daily-usage.ts";

/** What hovering a day's bar shows: the date and each kind's credits, then their sum. */
export function UsageTooltip({ active, payload }: { active: boolean | undefined; payload: ReadonlyArray<{ payload?: unknown }> | undefined }) {
  // Every bar of a day carries the day's whole row.
  const day = payload?.[0]?.payload as DailyUsage | undefined;
  if (!active || !day) return null;
  return (
    <div className="chart-tooltip" data-testid="usage-tooltip">
      <strong>{longDay(day.day)}</strong>
      <dl>
        <dt><span className="swatch scoring" /> Scoring</dt><dd>{day.scoring}</dd>
        <dt><span className="swatch pairwise" /> Pairwise</dt><dd>{day.pairwise}</dd>
        <dt>Total</dt><dd>{day.total} credit{day.total === 1 ? "" : "s"}</dd>
      </dl>
    </div>
  );
}
