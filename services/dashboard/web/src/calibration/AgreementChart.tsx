import { Bar, BarChart, CartesianGrid, ErrorBar, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AgreementRow } from "./calibration-series.ts";
import { intervalText, percentText } from "./calibration-words.ts";
import { FINAL_COLOUR, RAW_COLOUR } from "./calibration-colours.ts";

const AXIS_TICK = { fontSize: 12, fill: "#666" };

function AgreementTooltip({ active, payload }: { active: boolean | undefined; payload: ReadonlyArray<{ payload?: unknown }> | undefined }) {
  const row = payload?.[0]?.payload as AgreementRow | undefined;
  if (!active || !row) return null;
  return (
    <div className="chart-tooltip" data-testid="agreement-tooltip">
      <strong>{row.label}</strong>
      <dl>
        <dt><span className="swatch final" /> Final scores</dt><dd>{percentText(row.finalEstimate.value)} ({intervalText(row.finalEstimate, percentText)})</dd>
        {row.rawEstimate && <><dt><span className="swatch raw" /> Raw scores</dt><dd>{percentText(row.rawEstimate.value)} ({intervalText(row.rawEstimate, percentText)})</dd></>}
      </dl>
    </div>
  );
}

/** Pairwise agreement per goal, final and raw scores side by side, each with its 95 % interval, against chance. */
export function AgreementChart({ rows }: { rows: AgreementRow[] }) {
  return (
    <figure className="chart card" data-testid="agreement-chart">
      <figcaption className="visually-hidden">Pairwise agreement by goal, final and raw scores, with 95 % intervals as whiskers; 50 % is chance. The cards above list the same numbers.</figcaption>
      <ResponsiveContainer width="100%" height={280}>
        <BarChart data={rows} margin={{ top: 16, right: 16, bottom: 4, left: 4 }} barCategoryGap="30%" maxBarSize={96} accessibilityLayer>
          <CartesianGrid vertical={false} stroke="#ececea" />
          <XAxis dataKey="label" tick={AXIS_TICK} tickLine={false} axisLine={{ stroke: "#ccc" }} interval={0} />
          <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={percentText} tick={AXIS_TICK} tickLine={false} axisLine={false} width={56} />
          <Tooltip content={({ active, payload }) => <AgreementTooltip active={active} payload={payload} />} cursor={{ fill: "rgba(0, 0, 0, 0.05)" }} isAnimationActive={false} />
          <ReferenceLine y={0.5} stroke="#b3261e" strokeDasharray="5 4" label={{ value: "chance", position: "insideTopRight", fill: "#b3261e", fontSize: 12 }} ifOverflow="extendDomain" />
          <Bar dataKey="final" name="Final scores" fill={FINAL_COLOUR} radius={[3, 3, 0, 0]} isAnimationActive={false}>
            <ErrorBar dataKey="finalError" width={6} stroke="#1d1d1f" strokeWidth={1.5} isAnimationActive={false} />
          </Bar>
          <Bar dataKey="raw" name="Raw scores" fill={RAW_COLOUR} radius={[3, 3, 0, 0]} isAnimationActive={false}>
            <ErrorBar dataKey="rawError" width={6} stroke="#1d1d1f" strokeWidth={1.5} isAnimationActive={false} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
      <p className="legend muted"><span className="swatch final" /> final scores <span className="swatch raw" /> raw scores, before close-pair refinement · whiskers: 95 % interval · dashed line: chance (50 %)</p>
    </figure>
  );
}
