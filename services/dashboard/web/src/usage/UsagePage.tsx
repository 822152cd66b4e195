import { useEffect, useState } from "react";
import { Link } from "react-router";
import { api, type Usage } from "../api.ts";
import { EmptyState } from "../ui/EmptyState.tsx";
import { usePageTitle } from "../ui/use-page-title.ts";
import { BalanceCards } from "./BalanceCards.tsx";
import { dailyUsage } from "./daily-usage.ts";
import { UsageChart } from "./UsageChart.tsx";
import { UsageTable } from "./UsageTable.tsx";

type View = "chart" | "table";

/** Balance, then the last 30 days of usage as a chart or a table (the same numbers). */
export function UsagePage() {
  usePageTitle("Credits & usage");
  const [usage, setUsage] = useState<Usage | null>(null);
  const [view, setView] = useState<View>("chart");
  useEffect(() => void api<Usage>("GET", "/usage").then(setUsage), []);
  if (!usage) return <p className="loading">Loading…</p>;

  const days = dailyUsage(usage.days, new Date().toISOString().slice(0, 10));
  const anyUsage = days.some((d) => d.total > 0);
  return (
    <section>
      <h1>Credits &amp; usage</h1>
      <BalanceCards balance={usage.balance} />
      <div className="section-head">
        <h2>Credits used, last 30 days</h2>
        {anyUsage && (
          <div className="segmented" role="group" aria-label="Show usage as">
            {(["chart", "table"] as const).map((v) => (
              <button key={v} type="button" aria-pressed={view === v} className={view === v ? "active" : ""} onClick={() => setView(v)}>{v === "chart" ? "Chart" : "Table"}</button>
            ))}
          </div>
        )}
      </div>
      {!anyUsage && (
        <EmptyState title="No usage yet" testId="usage-empty">
          <p>Every image you rank and every pairwise panel uses credits. Once a request is settled, its credits show here per day, split into scoring and pairwise.</p>
          <p className="muted">Try the <Link to="/playground">playground</Link>, or call the API with a <Link to="/keys">key</Link>.</p>
        </EmptyState>
      )}
      {anyUsage && (view === "chart" ? <UsageChart days={days} /> : <UsageTable days={days} />)}
    </section>
  );
}
