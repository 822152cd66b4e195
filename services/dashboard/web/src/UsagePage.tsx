import { useEffect, useState } from "react";
import { api, type Usage } from "./api.ts";

/** Balance and a 30-day bar chart of units used, scoring and pairwise stacked. */
export function UsagePage() {
  const [usage, setUsage] = useState<Usage | null>(null);
  useEffect(() => void api<Usage>("GET", "/usage").then(setUsage), []);
  if (!usage) return <p>Loading…</p>;
  const days = Array.from({ length: 30 }, (_, i) => new Date(Date.now() - (29 - i) * 86_400_000).toISOString().slice(0, 10));
  const of = (day: string, kind: string) => usage.days.find((d) => d.day === day && d.kind === kind)?.units ?? 0;
  const max = Math.max(1, ...days.map((d) => of(d, "scoring") + of(d, "pairwise")));
  const barW = 18;
  return (
    <section>
      <h1>Credits &amp; usage</h1>
      <div className="stats">
        <div className="card"><span className="big" data-testid="available">{usage.balance.available}</span> credits available</div>
        <div className="card"><span className="big">{usage.balance.used}</span> used of {usage.balance.granted} granted</div>
        <div className="card"><span className="big">{usage.balance.reserved}</span> reserved by requests in flight</div>
      </div>
      <svg className="chart" viewBox={`0 0 ${days.length * barW} 140`} role="img" aria-label="Units used per day, last 30 days">
        {days.map((d, i) => {
          const s = (of(d, "scoring") / max) * 120;
          const p = (of(d, "pairwise") / max) * 120;
          return (
            <g key={d}>
              <title>{`${d}: ${of(d, "scoring")} scoring, ${of(d, "pairwise")} pairwise`}</title>
              <rect x={i * barW + 2} y={130 - s} width={barW - 4} height={s} className="scoring" />
              <rect x={i * barW + 2} y={130 - s - p} width={barW - 4} height={p} className="pairwise" />
            </g>
          );
        })}
      </svg>
      <p className="muted"><span className="swatch scoring" /> scoring evaluations <span className="swatch pairwise" /> pairwise panels, per day (UTC)</p>
    </section>
  );
}
