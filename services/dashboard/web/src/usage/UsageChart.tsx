import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { shortDay } from "../ui/format-date.ts";
import type { DailyUsage } from "./daily-usage.ts";
import { PAIRWISE_COLOUR, SCORING_COLOUR } from "./usage-colours.ts";
import { UsageTooltip } from "./UsageTooltip.tsx";

const AXIS_TICK = { fontSize: 12, fill: "#666" };

/** Credits used per UTC day, scoring and pairwise stacked, with dated axes and values on hover. */
export function UsageChart({ days }: { days: DailyUsage[] }) {
  return (
    <figure className="chart card" data-testid="usage-chart">
      <figcaption className="visually-hidden">Credits used per day over the last 30 days, scoring and pairwise stacked. The table view lists the same numbers.</figcaption>
      <ResponsiveContainer width="100%" height={280}>
        <BarChart data={days} margin={{ top: 12, right: 16, bottom: 4, left: 4 }} accessibilityLayer>
          <CartesianGrid vertical={false} stroke="#ececea" />
          <XAxis dataKey="day" tickFormatter={shortDay} tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: "#ccc" }} interval="preserveStartEnd" minTickGap={24} />
          <YAxis allowDecimals={false} tick={AXIS_TICK} tickLine={false} axisLine={false} width={56} label={{ value: "credits", angle: -90, position: "insideLeft", offset: 12, fill: "#666", fontSize: 12 }} />
          <Tooltip content={({ active, payload }) => <UsageTooltip active={active} payload={payload} />} cursor={{ fill: "rgba(0, 0, 0, 0.05)" }} isAnimationActive={false} />
          <Bar dataKey="scoring" name="Scoring" stackId="credits" fill={SCORING_COLOUR} isAnimationActive={false} />
          <Bar dataKey="pairwise" name="Pairwise" stackId="credits" fill={PAIRWISE_COLOUR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <p className="legend muted"><span className="swatch scoring" /> scoring evaluations <span className="swatch pairwise" /> pairwise panels · per UTC day</p>
    </figure>
  );
}
