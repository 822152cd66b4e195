import { longDay } from "../ui/format-date.ts";
import type { DailyUsage } from "./daily-usage.ts";

/** The chart's numbers as a table: the days with any usage, newest first, and the 30 days' totals. */
export function UsageTable({ days }: { days: DailyUsage[] }) {
  const used = days.filter((d) => d.total > 0).reverse();
  const sum = (pick: (d: DailyUsage) => number) => days.reduce((s, d) => s + pick(d), 0);
  return (
    <table className="usage-table card" data-testid="usage-table">
      <caption className="visually-hidden">Credits used per day, last 30 days</caption>
      <thead><tr><th scope="col">Day (UTC)</th><th scope="col" className="num">Scoring</th><th scope="col" className="num">Pairwise</th><th scope="col" className="num">Total</th></tr></thead>
      <tbody>
        {used.map((d) => (
          <tr key={d.day} data-day={d.day}>
            <th scope="row">{longDay(d.day)}</th><td className="num">{d.scoring}</td><td className="num">{d.pairwise}</td><td className="num">{d.total}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr><th scope="row">Last 30 days</th><td className="num">{sum((d) => d.scoring)}</td><td className="num">{sum((d) => d.pairwise)}</td><td className="num" data-testid="usage-total">{sum((d) => d.total)}</td></tr>
      </tfoot>
    </table>
  );
}
