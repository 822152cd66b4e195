import type { Estimate } from "@adrank/eval-stats";
import { fixed } from "../../number-format.ts";
import { plotAreaRect, round, xAxis, type PlotArea } from "./axes.ts";
import { escapeHtml } from "./escape.ts";
import { linearScale } from "./scale.ts";

/** One line of estimates of the same kind per row (e.g. raw and refined agreement). */
export interface ForestSeries {
  key: string;
  name: string;
  /** Drawn as a ring rather than a dot, so two series of one colour tell apart. */
  hollow: boolean;
}

export interface ForestRow {
  /** The full label, for the tooltip. */
  label: string;
  /** What the row shows (see shortLabels). */
  shortLabel: string;
  colour: string;
  /** The pooled row is set apart by a rule above it. */
  pooled: boolean;
  estimates: Record<string, Estimate | null>;
}

const WIDTH = 560;
const LABEL_WIDTH = 235;
const ROW_HEIGHT = 38;
const LABEL_CHARS = 34;

const clip = (label: string) => (label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label);

/**
 * Shares (0..1) with their 95 % intervals, one row per group: a dot at the estimate, whiskers
 * to the interval's ends, and a dashed line at 0.5, where a coin toss would land. A row with
 * no estimate says "not enough data" instead.
 */
export function forestPlot(rows: readonly ForestRow[], series: readonly ForestSeries[], axisTitle: string): string {
  const height = 26 + rows.length * ROW_HEIGHT + 56;
  const area: PlotArea = { x: LABEL_WIDTH, y: 26, width: WIDTH - LABEL_WIDTH - 18, height: rows.length * ROW_HEIGHT };
  const x = linearScale([], [area.x, area.x + area.width], { fixedDomain: [0, 1], step: 0.25 });
  const offset = (s: number) => (series.length === 1 ? 0 : (s - (series.length - 1) / 2) * 12);
  const body = rows.map((row, r) => {
    const mid = area.y + r * ROW_HEIGHT + ROW_HEIGHT / 2;
    const rule = row.pooled && r > 0 ? `<line class="rule" x1="8" y1="${area.y + r * ROW_HEIGHT}" x2="${WIDTH - 8}" y2="${area.y + r * ROW_HEIGHT}"/>` : "";
    const label = `<text class="row-label${row.pooled ? " pooled" : ""}" x="${LABEL_WIDTH - 12}" y="${mid + 4}" text-anchor="end">${escapeHtml(clip(row.shortLabel))}<title>${escapeHtml(row.label)}</title></text>`;
    const marks = series.map((s, i) => {
      const e = row.estimates[s.key] ?? null;
      if (e === null) return "";
      const cy = round(mid + offset(i));
      const [lo, hi, v] = [round(x(e.ci_low)), round(x(e.ci_high)), round(x(e.value))];
      const fill = s.hollow ? "#fff" : row.colour;
      const tip = `${row.label}, ${s.name}: ${fixed(e.value, 2)} [${fixed(e.ci_low, 2)}, ${fixed(e.ci_high, 2)}]`;
      return `<g class="estimate" data-series="${escapeHtml(s.key)}" data-row="${r}"><line class="whisker" x1="${lo}" y1="${cy}" x2="${hi}" y2="${cy}" stroke="${row.colour}"/><line class="cap" x1="${lo}" y1="${cy - 4}" x2="${lo}" y2="${cy + 4}" stroke="${row.colour}"/><line class="cap" x1="${hi}" y1="${cy - 4}" x2="${hi}" y2="${cy + 4}" stroke="${row.colour}"/><circle class="point" cx="${v}" cy="${cy}" r="5.5" fill="${fill}" stroke="${row.colour}"><title>${escapeHtml(tip)}</title></circle></g>`;
    });
    const none = series.every((s) => (row.estimates[s.key] ?? null) === null) ? `<text class="no-data" x="${area.x + 8}" y="${mid + 4}">not enough data</text>` : "";
    return `${rule}${label}${marks.join("")}${none}`;
  });
  const chance = round(x(0.5));
  return `<svg class="plot" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(axisTitle)} by group, with 95 % intervals">
${plotAreaRect(area)}${xAxis(area, x, axisTitle)}
<line class="chance" x1="${chance}" y1="${area.y - 4}" x2="${chance}" y2="${area.y + area.height}"/><text class="chance-label" x="${chance}" y="${area.y - 10}" text-anchor="middle">0.5 = chance</text>
${body.join("\n")}</svg>`;
}
