import type { Figures } from "@adrank/eval-stats";
import { counted } from "../../plural.ts";
import type { EvalResult } from "../eval-result.ts";
import { escapeHtml } from "./escape.ts";
import { estimateCell } from "./estimate-cell.ts";
import { forestPlot, type ForestRow } from "./forest-plot.ts";
import { groupColour, POOLED_COLOUR } from "./palette.ts";
import { scoreOutcomePlot } from "./score-outcome-plot.ts";
import { shortLabels } from "./short-labels.ts";

type Outcomes = NonNullable<EvalResult["outcomes"]>;

const swatch = (colour: string) => `<span class="swatch" style="background:${colour}"></span>`;

function figuresRow(label: string, colour: string, f: Figures, refine: boolean, pooled: boolean): string {
  const agreement = refine ? `<td>${estimateCell(f.pairwise_agreement_raw)}</td><td>${estimateCell(f.pairwise_agreement)}</td>` : `<td>${estimateCell(f.pairwise_agreement_raw)}</td>`;
  return `<tr${pooled ? ` class="pooled"` : ""}><th scope="row">${swatch(colour)}${escapeHtml(label)}</th><td class="num">${f.n}</td><td class="num">${f.pairs}</td><td>${estimateCell(f.spearman_rho)}</td><td>${estimateCell(f.kendall_tau_b)}</td>${agreement}</tr>`;
}

/** The figures of every group and pooled: a table, score against outcome, and agreement by group. */
export function outcomesSection(outcomes: Outcomes, metric: string | null): string {
  const { groups, pooled, refine } = outcomes;
  const pooledLabel = `Pooled (${counted(groups.length, "group")})`;
  const rows = groups.map((g, i) => figuresRow(g.label, groupColour(i), g.figures, refine, false));
  if (groups.length > 1) rows.push(figuresRow(pooledLabel, POOLED_COLOUR, pooled, refine, true));
  const agreementHead = refine ? `<th>Agreement, raw</th><th>Agreement, refined</th>` : `<th>Agreement (no refinement)</th>`;

  const short = shortLabels(groups.map((g) => g.label));
  const forestRows: ForestRow[] = groups.map((g, i) => ({ label: g.label, shortLabel: short[i]!, colour: groupColour(i), pooled: false, estimates: { raw: g.figures.pairwise_agreement_raw, refined: g.figures.pairwise_agreement } }));
  if (groups.length > 1) forestRows.push({ label: pooledLabel, shortLabel: pooledLabel, colour: POOLED_COLOUR, pooled: true, estimates: { raw: pooled.pairwise_agreement_raw, refined: pooled.pairwise_agreement } });
  const series = refine
    ? [
        { key: "raw", name: "raw scores", hollow: true },
        { key: "refined", name: "after refinement", hollow: false },
      ]
    : [{ key: "raw", name: "raw scores", hollow: false }];
  const seriesLegend = refine ? `<ul class="legend"><li><span class="ring"></span>raw scores</li><li><span class="dot"></span>after close-pair refinement</li></ul>` : "";
  const legend = groups.map((g, i) => `<li>${swatch(groupColour(i))}${escapeHtml(g.label)} <span class="muted">(${g.points.length})</span></li>`).join("");

  return `<section>
<h2>Scores against outcomes</h2>
<table class="figures"><thead><tr><th>Group</th><th class="num">n</th><th class="num">Pairs</th><th>Spearman ρ</th><th>Kendall τ-b</th>${agreementHead}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>
<p class="note">Each figure with its 95 % bootstrap interval in brackets (creatives resampled within each group). ρ and τ-b: rank correlation of score and outcome, −1 to 1, 0 is none. Agreement: the share of pairs of one group whose outcomes differ that the scores order the same way (a tie counts half); 0.5 is chance. Pairs are only compared inside a group: scores are relative within a ranking. “Not enough data”: too few creatives, or no spread in scores or outcomes.</p>
<div class="plots">
<figure class="card"><figcaption>Score against outcome</figcaption><ul class="legend">${legend}</ul>${scoreOutcomePlot(groups, metric)}</figure>
<figure class="card"><figcaption>Pairwise agreement by group</figcaption>${seriesLegend}${forestPlot(forestRows, series, "Pairwise agreement")}</figure>
</div>
</section>`;
}
