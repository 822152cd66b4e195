import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { CalibrationPoint } from "./calibration-api.ts";
import type { GoalSeries } from "./calibration-series.ts";
import { niceScale } from "./nice-scale.ts";

const AXIS_TICK = { fontSize: 12, fill: "#666" };

function PointTooltip({ active, payload, metric }: { active: boolean | undefined; payload: ReadonlyArray<{ payload?: unknown }> | undefined; metric: string }) {
  const point = payload?.[0]?.payload as CalibrationPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className="chart-tooltip" data-testid="point-tooltip">
      <strong>{point.asset_id}</strong>
      <dl>
        <dt>Goal</dt><dd>{point.goal}</dd>
        <dt>Score</dt><dd>{point.score.toFixed(2)}{point.score_before_refine !== point.score ? ` (raw ${point.score_before_refine.toFixed(2)})` : ""}</dd>
        <dt>{metric}</dt><dd>{point.value.toLocaleString("en-US", { maximumSignificantDigits: 6 })}</dd>
        <dt>Request</dt><dd><code>{point.request_id.slice(0, 8)}…</code></dd>
      </dl>
    </div>
  );
}

// The legend's swatches take their colour through React's style prop (CSSOM), which the CSP allows.

/** Every outcome as a dot: its final score across, what it did up, one colour per goal. */
export function OutcomeScatter({ series, metric }: { series: GoalSeries[]; metric: string }) {
  const points = series.flatMap((s) => s.points);
  const x = niceScale(points.map((p) => p.score));
  const y = niceScale(points.map((p) => p.value));
  return (
    <figure className="chart card" data-testid="outcome-scatter">
      <figcaption className="visually-hidden">Each recorded outcome of {metric} plotted against the final score of its creative, coloured by goal.</figcaption>
      <ResponsiveContainer width="100%" height={320}>
        <ScatterChart margin={{ top: 12, right: 16, bottom: 16, left: 4 }} accessibilityLayer>
          <CartesianGrid stroke="#ececea" />
          <XAxis type="number" dataKey="score" name="Score" domain={x.domain} ticks={x.ticks} tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: "#ccc" }} label={{ value: "final score", position: "insideBottom", offset: -10, fill: "#666", fontSize: 12 }} />
          <YAxis type="number" dataKey="value" name={metric} domain={y.domain} ticks={y.ticks} tick={AXIS_TICK} tickLine={false} axisLine={false} width={64} label={{ value: metric, angle: -90, position: "insideLeft", offset: 8, fill: "#666", fontSize: 12 }} />
          <Tooltip content={({ active, payload }) => <PointTooltip active={active} payload={payload} metric={metric} />} cursor={{ strokeDasharray: "3 3" }} isAnimationActive={false} />
          {series.map((s) => (
            <Scatter key={s.goal} name={s.goal} data={s.points} fill={s.colour} fillOpacity={0.8} isAnimationActive={false} />
          ))}
        </ScatterChart>
      </ResponsiveContainer>
      <ul className="legend muted goal-legend" data-testid="scatter-legend">
        {series.map((s) => (
          <li key={s.goal}><span className="swatch" style={{ background: s.colour }} /> {s.goal} ({s.points.length})</li>
        ))}
      </ul>
    </figure>
  );
}
