import { fixed } from "../../number-format.ts";
import type { EvalGroup } from "../eval-result.ts";
import { plotAreaRect, round, xAxis, yAxis, type PlotArea } from "./axes.ts";
import { escapeHtml } from "./escape.ts";
import { groupColour } from "./palette.ts";
import { linearScale } from "./scale.ts";

const WIDTH = 560;
const HEIGHT = 400;
const AREA: PlotArea = { x: 70, y: 12, width: WIDTH - 70 - 14, height: HEIGHT - 12 - 54 };

/**
 * Score against outcome, one dot per creative, one colour per group. Each dot's <title> names
 * the creative, so hovering tells which it is. Scores are relative within a ranking, so dots of
 * different groups are not on one scale: the figures only ever compare inside a group.
 */
export function scoreOutcomePlot(groups: readonly EvalGroup[], metric: string | null): string {
  const points = groups.flatMap((g, i) => g.points.map((p) => ({ ...p, group: g.label, colour: groupColour(i) })));
  const x = linearScale(
    points.map((p) => p.score),
    [AREA.x, AREA.x + AREA.width],
  );
  const y = linearScale(
    points.map((p) => p.outcome),
    [AREA.y + AREA.height, AREA.y],
  );
  const dots = points.map(
    (p) =>
      `<circle class="point" data-id="${escapeHtml(p.id)}" cx="${round(x(p.score))}" cy="${round(y(p.outcome))}" r="5.5" fill="${p.colour}"><title>${escapeHtml(`${p.id} (${p.group}): score ${fixed(p.score, 2)}, outcome ${p.outcome}`)}</title></circle>`,
  );
  const empty = points.length === 0 ? `<text class="empty" x="${AREA.x + AREA.width / 2}" y="${AREA.y + AREA.height / 2}" text-anchor="middle">no scored creatives</text>` : "";
  return `<svg class="plot" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Score against outcome, one dot per creative">
${plotAreaRect(AREA)}${xAxis(AREA, x, "Score (1–5, after refinement)")}${yAxis(AREA, y, metric ? `Outcome (${metric})` : "Outcome")}
<g class="points">${dots.join("")}</g>${empty}</svg>`;
}
