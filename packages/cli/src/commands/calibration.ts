import type { CalibrationGroup, CalibrationResponse, Estimate, Goal, MetricCalibration } from "@adrank/sdk";
import { checkGoal } from "../closed-list-flags.ts";
import { jsonOutput } from "../json-output.ts";
import { fixed } from "../number-format.ts";
import { parseFlags } from "../parse-flags.ts";
import { counted } from "../plural.ts";
import { reliabilityLines } from "../reliability-table.ts";
import { clientFromEnv } from "../settings.ts";
import { checkMetricName } from "./outcomes.ts";

export const CALIBRATION_HELP = `adrank calibration [--metric <name>] [--goal <goal>] [--json]

How well your past scores predicted the outcomes you recorded with adrank outcomes: per metric,
a row per goal and one for all goals, with the outcomes (n) and rankings they come from,
Spearman's rho with its 95 % interval, Kendall's tau-b, and pairwise agreement: how often the
final score (and the raw score, before close-pair refinement) ordered two creatives of one
ranking the way their outcomes did; 0.50 is chance. Then the reliability of P>next: per bin of
the probability rankings gave neighbouring images, the pairs in it, their mean probability and
the share the outcomes ordered that way (95 % interval); close to the mean when it is
calibrated. A group with too few outcomes says "not enough data (4 of 10)". Outcomes of
rankings the offline sim model scored are flagged: figures over them measure the harness, not a
model. Costs no credits.

  --metric <name>               only this metric (e.g. ctr)
  --goal <goal>                 only this goal (e.g. click-through-rate)
  --json                        print the API's answer`;

const CALIBRATION_OPTIONS = { metric: { type: "string" }, goal: { type: "string" }, json: { type: "boolean" } } as const;

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length));
const figure = (e: Estimate | null) => (e === null ? "–" : fixed(e.value, 2));
const withInterval = (e: Estimate | null) => (e === null ? "–" : `${fixed(e.value, 2)} [${fixed(e.ci_low, 2)}, ${fixed(e.ci_high, 2)}]`);

/** Why a group has no figures: too few outcomes, or not one pair of them to compare. */
const notEnough = (g: CalibrationGroup, minOutcomes: number) =>
  g.n_outcomes < minOutcomes ? `not enough data (${g.n_outcomes} of ${minOutcomes})` : "not enough data (no two outcomes of one ranking differ)";

/** One metric's table: a row per goal, then all goals (when there are several), then a sim warning if any. */
export function metricTable(m: MetricCalibration, minOutcomes: number): string {
  const groups = m.goals.length === 1 ? m.goals : [...m.goals, m.pooled];
  const header = ["goal", "n", "requests", "rho [95 % CI]", "tau-b", "agreement final / raw"];
  const rows = groups.map((g) => {
    const head = [g.goal ?? "all goals", String(g.n_outcomes), String(g.n_requests)];
    if (!g.enough_data) return [...head, notEnough(g, minOutcomes)];
    return [...head, withInterval(g.spearman_rho), figure(g.kendall_tau_b), `${figure(g.pairwise_agreement)} / ${figure(g.pairwise_agreement_raw)}`];
  });
  // A "not enough data" cell runs across the figure columns: it does not widen the rho column.
  const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => r.length === header.length || i < 3).map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join("  ").trimEnd();
  const p = m.pooled;
  const out = [`${m.metric}: ${counted(p.n_outcomes, "outcome")} of ${counted(p.n_requests, "ranking")}`, line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  // One reliability table per metric, over the pooled group (the goal's own when there is one goal).
  const reliability = reliabilityLines(p.reliability, m.goals.length === 1 ? (m.goals[0]!.goal ?? "all goals") : "all goals");
  if (reliability.length > 0) out.push("", ...reliability);
  if (p.n_simulated > 0) {
    out.push(`SIMULATED: ${p.n_simulated} of these ${counted(p.n_outcomes, "outcome")} belong to rankings scored by the offline sim model: their figures measure the harness, not a model.`);
  }
  return out.join("\n");
}

/** The terminal's answer: a table per metric, or what to do when nothing is recorded. */
export function calibrationOutput(data: CalibrationResponse, filter: { metric?: string; goal?: string }): string {
  if (data.metrics.length === 0) {
    const scope = [filter.metric && `metric ${filter.metric}`, filter.goal && `goal ${filter.goal}`].filter(Boolean).join(" and ");
    return `no outcomes recorded${scope ? ` for ${scope}` : " yet"}: adrank outcomes <file> records them\n`;
  }
  const tables = data.metrics.map((m) => metricTable(m, data.min_outcomes));
  return `${tables.join("\n\n")}\n\nrho: 95 % interval from ${data.resamples} bootstrap resamples within each ranking. Agreement 0.50 is chance. Figures need ${data.min_outcomes} outcomes.\n`;
}

export async function calibrationCommand(args: string[], env: NodeJS.ProcessEnv, out: NodeJS.WriteStream): Promise<void> {
  const { values } = parseFlags(args, CALIBRATION_OPTIONS);
  const client = clientFromEnv(env);
  if (values.metric !== undefined) checkMetricName(values.metric, "--metric");
  checkGoal(values.goal);
  const query = { ...(values.metric !== undefined ? { metric: values.metric } : {}), ...(values.goal !== undefined ? { goal: values.goal as Goal } : {}) };
  const { data } = await client.calibration.get(query);
  out.write(values.json ? jsonOutput(data) : calibrationOutput(data, query));
}
