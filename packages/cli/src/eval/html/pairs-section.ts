import { counted } from "../../plural.ts";
import type { LabelledPairResult, PairsSection } from "../eval-result.ts";
import { thumbnail, type Thumbnails } from "./creatives-section.ts";
import { escapeHtml } from "./escape.ts";
import { estimateCell } from "./estimate-cell.ts";
import { forestPlot, type ForestRow } from "./forest-plot.ts";
import { groupColour, POOLED_COLOUR } from "./palette.ts";
import { shortLabels } from "./short-labels.ts";

function verdict(pair: LabelledPairResult): string {
  if (pair.panel_winner === null) return `<span class="verdict none">incomplete</span>`;
  return pair.panel_winner === pair.label ? `<span class="verdict yes">agrees</span>` : `<span class="verdict no">disagrees</span>`;
}

const side = (thumbnails: Thumbnails | undefined, image: string) => `<div class="side">${thumbnail(thumbnails, image, image)}<span class="muted">${escapeHtml(image)}</span></div>`;

/** Labelled pairs: how often the panel picked the labelled winner, by group, and every pair. */
export function pairsSection(pairs: PairsSection, thumbnails: Thumbnails | undefined): string {
  const pooledLabel = `Pooled (${counted(pairs.groups.length, "group")})`;
  const short = shortLabels(pairs.groups.map((g) => g.label));
  const forestRows: ForestRow[] = pairs.groups.map((g, i) => ({ label: g.label, shortLabel: short[i]!, colour: groupColour(i), pooled: false, estimates: { panel: g.agreement } }));
  if (pairs.groups.length > 1) forestRows.push({ label: pooledLabel, shortLabel: pooledLabel, colour: POOLED_COLOUR, pooled: true, estimates: { panel: pairs.agreement } });
  const tableRows = pairs.groups.map((g, i) => `<tr><th scope="row"><span class="swatch" style="background:${groupColour(i)}"></span>${escapeHtml(g.label)}</th><td class="num">${g.n}</td><td class="num">${g.completed}</td><td>${estimateCell(g.agreement)}</td></tr>`);
  if (pairs.groups.length > 1) tableRows.push(`<tr class="pooled"><th scope="row">${escapeHtml(pooledLabel)}</th><td class="num">${pairs.n}</td><td class="num">${pairs.completed}</td><td>${estimateCell(pairs.agreement)}</td></tr>`);
  const items = pairs.items.map(
    (p) =>
      `<tr><td>${escapeHtml(p.group)}</td><td>${side(thumbnails, p.image_a)}</td><td>${side(thumbnails, p.image_b)}</td><td class="center">${p.label.toUpperCase()}</td><td class="center">${p.panel_winner === null ? "–" : p.panel_winner.toUpperCase()}</td><td class="num">${p.votes_a} : ${p.votes_b}</td><td>${verdict(p)}</td></tr>`,
  );
  const incomplete = pairs.n - pairs.completed;
  return `<section>
<h2>Labelled pairs and the panel</h2>
<div class="plots">
<div><table class="figures"><thead><tr><th>Group</th><th class="num">Pairs</th><th class="num">Completed</th><th>Panel agrees with label</th></tr></thead><tbody>${tableRows.join("\n")}</tbody></table>
<p class="note">The share of completed panels whose winner is the labelled winner, with its 95 % Wilson score interval (the pairs are independent trials); 0.5 is chance.${incomplete > 0 ? ` ${counted(incomplete, "pair")} did not get a completed panel and ${incomplete === 1 ? "is" : "are"} left out.` : ""}</p></div>
<figure class="card"><figcaption>Panel agreement with the labels</figcaption>${forestPlot(forestRows, [{ key: "panel", name: "panel agrees", hollow: false }], "Panel agreement with the labelled winner")}</figure>
</div>
<table class="pairs"><thead><tr><th>Group</th><th>Image A</th><th>Image B</th><th class="center">Label</th><th class="center">Panel</th><th class="num">Votes A : B</th><th></th></tr></thead><tbody>${items.join("\n")}</tbody></table>
</section>`;
}
