import { fixed } from "../../number-format.ts";
import { counted } from "../../plural.ts";
import type { EvalFailure, EvalGroup, EvalPoint } from "../eval-result.ts";
import { escapeHtml, safeImageSrc } from "./escape.ts";
import { groupColour } from "./palette.ts";

export type Thumbnails = ReadonlyMap<string, string>;

/** A small image from the thumbnails (data URIs only), or an empty frame when there is none. */
export function thumbnail(thumbnails: Thumbnails | undefined, key: string, alt: string): string {
  const src = safeImageSrc(thumbnails?.get(key));
  return src === null ? `<span class="thumb none"></span>` : `<img class="thumb" src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`;
}

/** 1 for the highest value; ties share the best rank ("competition" ranking, as a leaderboard reads). */
function ranksOf(values: number[]): number[] {
  return values.map((v) => 1 + values.filter((w) => w > v).length);
}

function groupTable(group: EvalGroup, index: number, thumbnails: Thumbnails | undefined): string {
  const points: EvalPoint[] = [...group.points].sort((a, b) => b.score - a.score);
  const scoreRanks = ranksOf(points.map((p) => p.score));
  const outcomeRanks = ranksOf(points.map((p) => p.outcome));
  const rows = points.map(
    (p, i) =>
      `<tr><td>${thumbnail(thumbnails, p.id, p.id)}</td><td><span class="id">${escapeHtml(p.id)}</span>${p.image !== p.id ? `<br><span class="muted">${escapeHtml(p.image)}</span>` : ""}</td><td class="num">${fixed(p.score, 2)}</td><td class="num">${fixed(p.score_before_refine, 2)}</td><td class="num">${scoreRanks[i]}</td><td class="num">${escapeHtml(String(p.outcome))}</td><td class="num">${outcomeRanks[i]}</td></tr>`,
  );
  const rankings = group.request_ids.length > 1 ? `, scored in ${group.request_ids.length} rankings` : "";
  return `<details><summary><span class="swatch" style="background:${groupColour(index)}"></span>${escapeHtml(group.label)} <span class="muted">${counted(group.points.length, "creative")}${rankings}</span></summary>
<table class="creatives"><thead><tr><th></th><th>Creative</th><th class="num">Score</th><th class="num">Raw score</th><th class="num">Score rank</th><th class="num">Outcome</th><th class="num">Outcome rank</th></tr></thead><tbody>${rows.join("")}</tbody></table></details>`;
}

/** Every group's creatives by score, with their outcomes, folded away until opened. */
export function creativesSection(groups: readonly EvalGroup[], thumbnails: Thumbnails | undefined): string {
  if (groups.length === 0) return "";
  return `<section><h2>Creatives by group</h2>${groups.map((g, i) => groupTable(g, i, thumbnails)).join("\n")}</section>`;
}

/** The creatives the API could not score: left out of every figure, so a reader must see them. */
export function failuresSection(failed: readonly EvalFailure[]): string {
  if (failed.length === 0) return "";
  const items = failed.map((f) => `<li><span class="id">${escapeHtml(f.id || f.image)}</span>${f.image && f.image !== f.id ? ` <span class="muted">${escapeHtml(f.image)}</span>` : ""}: ${escapeHtml(f.error)}</li>`);
  return `<section><h2>Not scored</h2><p>${counted(failed.length, "creative")} could not be scored and ${failed.length === 1 ? "is" : "are"} left out of every figure:</p><ul class="failed">${items.join("")}</ul></section>`;
}
