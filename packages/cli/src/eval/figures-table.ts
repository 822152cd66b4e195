import type { Estimate, Figures } from "@adrank/eval-stats";
import { modelsNoteLines } from "../models-note.ts";
import { fixed } from "../number-format.ts";
import { counted } from "../plural.ts";
import type { EvalResult } from "./eval-result.ts";

// What `adrank eval` prints on stdout (without --json): one row per group and a pooled row,
// then what the columns mean, the creatives left out, and the models that answered.

const NONE = "–";
const pad = (s: string, n: number, right = false) => (s.length >= n ? s : right ? " ".repeat(n - s.length) + s : s + " ".repeat(n - s.length));
const value = (e: Estimate | null) => (e === null ? NONE : fixed(e.value, 2));
const withInterval = (e: Estimate | null) => (e === null ? NONE : `${fixed(e.value, 2)} [${fixed(e.ci_low, 2)}, ${fixed(e.ci_high, 2)}]`);

/** Cells laid out in columns two spaces apart; numbers (after the first column) right-aligned where marked. */
function table(header: string[], rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!, rightAligned.has(i))).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

const agreementCell = (f: Figures, refine: boolean) => (refine ? `${value(f.pairwise_agreement_raw)} → ${withInterval(f.pairwise_agreement)}` : withInterval(f.pairwise_agreement_raw));

function outcomeLines(outcomes: NonNullable<EvalResult["outcomes"]>): string[] {
  const { refine } = outcomes;
  const row = (label: string, f: Figures) => [label, String(f.n), withInterval(f.spearman_rho), value(f.kendall_tau_b), agreementCell(f, refine)];
  const rows = outcomes.groups.map((g) => row(g.label, g.figures));
  if (outcomes.groups.length > 1) rows.push(row(`pooled (${outcomes.groups.length} groups)`, outcomes.pooled));
  const lines = table(["group", "n", "rho [95 % CI]", "tau-b", refine ? "agreement raw → refined [95 % CI]" : "agreement [95 % CI] (no refinement)"], rows, new Set([1]));
  lines.push(
    "",
    "rho: Spearman rank correlation of score and outcome; tau-b: Kendall's tau-b; agreement: share of",
    "pairs of one group whose outcomes differ that the scores order the same way (0.5 is chance). The",
    `intervals are 95 % bootstrap intervals; ${NONE}: too few creatives, or no spread in scores or outcomes.`,
  );
  const split = outcomes.groups.filter((g) => g.request_ids.length > 1);
  if (split.length > 0) lines.push(`${counted(split.length, "group")} had more creatives than one ranking takes: ${split.map((g) => `${g.label} (${g.request_ids.length} rankings)`).join(", ")}; their scores come from several rankings.`);
  if (outcomes.failed.length > 0) {
    lines.push("", `${counted(outcomes.failed.length, "creative")} could not be scored and ${outcomes.failed.length === 1 ? "is" : "are"} left out of every figure:`);
    for (const f of outcomes.failed) lines.push(`  ${f.image || f.id}: ${f.error}`);
  }
  return lines;
}

function pairLines(pairs: NonNullable<EvalResult["pairs"]>): string[] {
  const rows = pairs.groups.map((g) => [g.label, String(g.n), String(g.completed), withInterval(g.agreement)]);
  if (pairs.groups.length > 1) rows.push([`pooled (${pairs.groups.length} groups)`, String(pairs.n), String(pairs.completed), withInterval(pairs.agreement)]);
  const lines = table(["group", "pairs", "completed", "panel agrees with label [95 % CI]"], rows, new Set([1, 2]));
  lines.push("", "The share of completed panels whose winner is the labelled winner (0.5 is chance), with a 95 % Wilson score interval.");
  const incomplete = pairs.n - pairs.completed;
  if (incomplete > 0) lines.push(`${counted(incomplete, "pair")} did not get a completed panel (partial or error) and ${incomplete === 1 ? "is" : "are"} left out.`);
  return lines;
}

/** The figures as terminal lines, with the models note (and its SIMULATED warning) last. */
export function figuresTable(result: EvalResult, { colour = false } = {}): string[] {
  const lines = [...(result.outcomes ? outcomeLines(result.outcomes) : []), ...(result.pairs ? pairLines(result.pairs) : [])];
  const answers = result.outcomes ? "scores" : "votes";
  for (const models of result.api.models) lines.push("", ...modelsNoteLines(models, answers, colour));
  return lines;
}
