import { escapeHtml } from "./escape.ts";
import type { LinearScale } from "./scale.ts";

/** The rectangle the data is drawn in, inside an SVG's viewBox. */
export interface PlotArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The plot area's frame as an element the tests (and readers of the source) can find. */
export const plotAreaRect = (a: PlotArea) => `<rect class="plot-area" x="${a.x}" y="${a.y}" width="${a.width}" height="${a.height}"/>`;

/** Grid lines, tick labels and the title of a horizontal axis along the plot area's bottom. */
export function xAxis(area: PlotArea, scale: LinearScale, title: string): string {
  const bottom = area.y + area.height;
  const ticks = scale.ticks.map((t) => {
    const x = round(scale(t));
    return `<line class="grid" x1="${x}" y1="${area.y}" x2="${x}" y2="${bottom}"/><text class="tick" x="${x}" y="${bottom + 18}" text-anchor="middle">${scale.label(t)}</text>`;
  });
  return `<g class="axis x">${ticks.join("")}<text class="axis-title" x="${round(area.x + area.width / 2)}" y="${bottom + 40}" text-anchor="middle">${escapeHtml(title)}</text></g>`;
}

/** The same for a vertical axis along the plot area's left side. */
export function yAxis(area: PlotArea, scale: LinearScale, title: string): string {
  const ticks = scale.ticks.map((t) => {
    const y = round(scale(t));
    return `<line class="grid" x1="${area.x}" y1="${y}" x2="${area.x + area.width}" y2="${y}"/><text class="tick" x="${area.x - 8}" y="${y + 4}" text-anchor="end">${scale.label(t)}</text>`;
  });
  const cx = area.x - 50;
  const cy = round(area.y + area.height / 2);
  return `<g class="axis y">${ticks.join("")}<text class="axis-title" x="${cx}" y="${cy}" text-anchor="middle" transform="rotate(-90 ${cx} ${cy})">${escapeHtml(title)}</text></g>`;
}

/** Coordinates to a tenth of a pixel: enough for the eye, short in the file. */
export const round = (v: number) => Math.round(v * 10) / 10;
