import { modelsNote } from "../../models-note.ts";
import { counted } from "../../plural.ts";
import type { EvalResult } from "../eval-result.ts";
import { creativesSection, failuresSection, type Thumbnails } from "./creatives-section.ts";
import { escapeHtml } from "./escape.ts";
import { estimateText } from "./estimate-cell.ts";
import { outcomesSection } from "./figures-section.ts";
import { pairsSection } from "./pairs-section.ts";
import { REPORT_STYLE } from "./report-style.ts";

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";
const SIM_FALLBACK = "Simulated: these results come from the offline sim model (pixel statistics and copy heuristics), not a language model.";

/** "1 min 23 s" between two ISO times; empty when either does not parse. */
function duration(start: string, end: string): string {
  const seconds = Math.round((Date.parse(end) - Date.parse(start)) / 1000);
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

const when = (iso: string) => (Number.isFinite(Date.parse(iso)) ? new Date(iso).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") : iso);

function keyFigure(label: string, text: string): string {
  const [value, interval] = text.includes(" [") ? [text.slice(0, text.indexOf(" [")), text.slice(text.indexOf(" [") + 1)] : [text, ""];
  return `<div class="card key"><div class="label">${escapeHtml(label)}</div><div class="big">${escapeHtml(value)}</div>${interval ? `<div class="ci">95 % interval ${escapeHtml(interval)}</div>` : ""}</div>`;
}

function keyFigures(result: EvalResult): string {
  const cards: string[] = [];
  const o = result.outcomes;
  if (o) {
    const many = o.groups.length > 1;
    const figures = many ? o.pooled : o.groups[0]?.figures;
    if (figures) {
      cards.push(keyFigure(`Spearman ρ${many ? ", pooled" : ""}`, estimateText(figures.spearman_rho)));
      cards.push(keyFigure(`Pairwise agreement${o.refine ? ", refined" : ""}${many ? ", pooled" : ""}`, estimateText(o.refine ? figures.pairwise_agreement : figures.pairwise_agreement_raw)));
    }
  }
  if (result.pairs) cards.push(keyFigure("Panel agrees with labels", estimateText(result.pairs.agreement)));
  cards.push(keyFigure("Credits used", `${result.credits_used}`));
  return `<div class="cards">${cards.join("")}</div>`;
}

function header(result: EvalResult): string {
  const { dataset, api } = result;
  const answers = result.outcomes ? "scores" : "votes";
  const notes = api.models.map((m) => modelsNote(m, answers));
  const warning = api.simulated ? (notes.find((n) => n.warning)?.warning ?? SIM_FALLBACK).replace(/^SIMULATED: (.)/, (_, c: string) => c.toUpperCase()) : null;
  const badge = api.simulated ? `<span class="sim">Simulated</span>` : "";
  const simNote = warning
    ? `<p class="sim-note"><b>Simulated.</b> ${escapeHtml(warning)} These figures show that the evaluation runs end to end; they say nothing about how well a model predicts real results. Measure that with real providers and your own creatives and outcomes.</p>`
    : "";
  const models = notes.map((n) => n.line).filter((l): l is string => l !== null);
  const took = duration(result.started_at, result.finished_at);
  const facts = [
    `<b>${escapeHtml(dataset.format.toUpperCase())}</b>, ${counted(dataset.rows, "row")}${dataset.metric ? `, metric <b>${escapeHtml(dataset.metric)}</b>` : ""}`,
    `sha256 <span title="${escapeHtml(dataset.sha256)}">${escapeHtml(dataset.sha256.slice(0, 12))}…</span>`,
    `${counted(result.requests, "request")} to ${escapeHtml(api.base_url)}`,
    `${counted(result.credits_used, "credit")} used`,
    `${escapeHtml(when(result.started_at))}${took ? ` (took ${took})` : ""}`,
  ];
  return `<header><h1>Evaluation of ${escapeHtml(dataset.path)}${badge}</h1>
<p class="facts">${facts.join(" · ")}</p>
${models.map((l) => `<p class="models">${escapeHtml(l)}</p>`).join("\n")}
${simNote}</header>`;
}

/**
 * The HTML report of `adrank eval`: one self-contained page (no script, nothing fetched; the
 * CSP says so too) with the figures per group and pooled, score against outcome and agreement
 * by group drawn as inline SVG, the labelled pairs and the panel's verdicts, the creatives that
 * failed, the models and the credits. A "Simulated" badge and a plain warning when the offline
 * sim model answered. Every text from the dataset or the API is escaped.
 *
 * `thumbnails` maps a point's id (outcome rows) or an image as the dataset writes it (pairs)
 * to a data URI of that image; anything but a data URI of an image is ignored.
 */
export function evalReportHtml(result: EvalResult, thumbnails?: Thumbnails): string {
  const sections = [
    result.outcomes ? outcomesSection(result.outcomes, result.dataset.metric) : "",
    result.pairs ? pairsSection(result.pairs, thumbnails) : "",
    result.outcomes ? creativesSection(result.outcomes.groups, thumbnails) : "",
    result.outcomes ? failuresSection(result.outcomes.failed) : "",
  ].filter((s) => s !== "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>Evaluation of ${escapeHtml(result.dataset.path)}${result.api.simulated ? " (simulated)" : ""}</title>
<style>${REPORT_STYLE}</style></head>
<body><main>
${header(result)}
${keyFigures(result)}
${sections.join("\n")}
<footer>Written by adrank eval. Scores are relative within one ranking, not forecasts; the intervals are 95 % bootstrap percentile intervals. Dataset sha256 ${escapeHtml(result.dataset.sha256)}: two runs with the same hash scored the same data.</footer>
</main></body></html>
`;
}
