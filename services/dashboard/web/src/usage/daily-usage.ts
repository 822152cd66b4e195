import type { Usage } from "../api.ts";

/** One UTC day of the chart and the table: credits used by scoring and by pairwise panels. */
export interface DailyUsage {
  day: string;
  scoring: number;
  pairwise: number;
  total: number;
}

/**
 * The 30 UTC days ending `today` (`YYYY-MM-DD`), oldest first, with zeros where nothing was
 * used, so the chart's axis shows the whole window rather than only the busy days.
 */
export function dailyUsage(rows: Usage["days"], today: string): DailyUsage[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: 30 }, (_, i) => {
    const day = new Date(end - (29 - i) * 86_400_000).toISOString().slice(0, 10);
    const of = (kind: string) => rows.filter((r) => r.day === day && r.kind === kind).reduce((sum, r) => sum + r.units, 0);
    const scoring = of("scoring");
    const pairwise = of("pairwise");
    return { day, scoring, pairwise, total: scoring + pairwise };
  });
}
