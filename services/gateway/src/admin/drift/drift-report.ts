import type { DriftRunRecord } from "@adrank/db/repositories";
import type { DriftComparison, DriftThresholds, ReceiptValue } from "@adrank/eval-stats";
import { DRIFT_EXIT, type DriftExitCode } from "./exit-codes.ts";

/**
 * What one drift run found, as `--json` prints it (snake_case, like the API). `status`:
 * `baseline` (no earlier run), `new_baseline` (the batch changed since the last run: not
 * compared), `unchanged` (compared, no warning) or `moved` (compared, with warnings).
 */
export interface DriftReport {
  status: "baseline" | "new_baseline" | "unchanged" | "moved";
  exit_code: DriftExitCode;
  run: RunSummary;
  /** The run compared with (or, for new_baseline, the last run of the earlier batch). */
  previous: RunSummary | null;
  thresholds: { min_rho: number; max_mean_change: number };
  comparison: ComparisonSummary | null;
  /** The warnings' sentences; what the text report prints after `WARNING: `. */
  warnings: string[];
}

interface RunSummary {
  id: string;
  created_at: string;
  request_id: string;
  batch_hash: string;
  method_version: string | null;
  answer_warnings: string[];
}

interface ComparisonSummary {
  assets: number;
  spearman_rho: number | null;
  kendall_tau_b: number | null;
  mean_absolute_change: number | null;
  changes: Array<{ asset_id: string; rank_before: number; rank_after: number; score_before: number; score_after: number; score_change: number }>;
  missing_assets: string[];
  receipt_differences: Array<{ field: string; before: ReceiptValue; after: ReceiptValue }>;
  answer_warnings_added: string[];
  answer_warnings_removed: string[];
}

const summaryOf = (run: DriftRunRecord): RunSummary => ({
  id: run.id,
  created_at: run.createdAt.toISOString(),
  request_id: run.requestId,
  batch_hash: run.batchHash,
  method_version: run.receipt?.version ?? null,
  answer_warnings: run.warnings.map((w) => w.code),
});

/** The report of a stored run, the run before it (if any) and their comparison. */
export function driftReportOf(input: { run: DriftRunRecord; previous: DriftRunRecord | null; comparison: DriftComparison | null; thresholds: DriftThresholds }): DriftReport {
  const { run, previous, comparison, thresholds } = input;
  const compared = comparison?.compared ? comparison : null;
  const warnings = compared?.warnings.map((w) => w.message) ?? [];
  const status = !previous ? "baseline" : !compared ? "new_baseline" : warnings.length > 0 ? "moved" : "unchanged";
  return {
    status,
    exit_code: warnings.length > 0 ? DRIFT_EXIT.warned : DRIFT_EXIT.unchanged,
    run: summaryOf(run),
    previous: previous ? summaryOf(previous) : null,
    thresholds: { min_rho: thresholds.minRho, max_mean_change: thresholds.maxMeanChange },
    comparison: compared && {
      assets: compared.assets,
      spearman_rho: compared.spearmanRho,
      kendall_tau_b: compared.kendallTauB,
      mean_absolute_change: compared.meanAbsoluteChange,
      changes: compared.changes.map((c) => ({ asset_id: c.assetId, rank_before: c.before.rank, rank_after: c.after.rank, score_before: c.before.score, score_after: c.after.score, score_change: c.scoreChange })),
      missing_assets: compared.missingAssets,
      receipt_differences: compared.receiptDifferences,
      answer_warnings_added: compared.warningCodesAdded,
      answer_warnings_removed: compared.warningCodesRemoved,
    },
    warnings,
  };
}

/** What `--json` prints when a run failed (exit 1): nothing was stored. */
export function driftErrorReport(message: string): { status: "error"; exit_code: DriftExitCode; error: string } {
  return { status: "error", exit_code: DRIFT_EXIT.error, error: message };
}

const figure = (n: number | null, digits = 3) => (n === null ? "undefined" : n.toFixed(digits));
const signed = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(2)}`;
const short = (hash: string) => hash.slice(0, 12);
const codes = (list: readonly string[]) => (list.length === 0 ? "none" : list.join(", "));

/** The report as a few lines for a terminal or a Job's log; warnings start with `WARNING: `. */
export function driftReportLines(report: DriftReport): string[] {
  const { run, previous, comparison } = report;
  const lines = [`drift: ranked the reference batch (batch ${short(run.batch_hash)}) as request ${run.request_id}; stored as run ${run.id}`];
  if (run.method_version === null) lines.push("drift: the answer carried no method receipt (a server older than issue 34): the models cannot be compared");
  if (report.status === "baseline") {
    lines.push("drift: no earlier run: this run is the baseline, and the next run is compared with it");
  } else if (report.status === "new_baseline") {
    lines.push(`drift: the batch changed since run ${previous!.id} of ${previous!.created_at} (batch ${short(previous!.batch_hash)} → ${short(run.batch_hash)}): not compared; this run is the new baseline`);
  } else if (comparison) {
    lines.push(`drift: compared with run ${previous!.id} of ${previous!.created_at} (request ${previous!.request_id})`);
    lines.push(
      `  Spearman rho ${figure(comparison.spearman_rho)} (warns below ${figure(report.thresholds.min_rho)})  Kendall tau-b ${figure(comparison.kendall_tau_b)}  ` +
        `mean |score change| ${figure(comparison.mean_absolute_change)} (warns above ${figure(report.thresholds.max_mean_change)})`,
    );
    const width = Math.max(5, ...comparison.changes.map((c) => c.asset_id.length));
    lines.push(`  ${"asset".padEnd(width)}  rank    score`);
    for (const c of comparison.changes) {
      lines.push(`  ${c.asset_id.padEnd(width)}  ${`${c.rank_before} → ${c.rank_after}`.padEnd(6)}  ${c.score_before.toFixed(2)} → ${c.score_after.toFixed(2)} (${signed(c.score_change)})`);
    }
    lines.push(comparison.receipt_differences.length === 0 ? `  receipt: unchanged (method ${run.method_version ?? "unknown"})` : `  receipt: ${comparison.receipt_differences.length} field(s) changed`);
    lines.push(`  answer warnings: ${codes(run.answer_warnings)}${comparison.answer_warnings_added.length > 0 ? `; new: ${codes(comparison.answer_warnings_added)}` : ""}${comparison.answer_warnings_removed.length > 0 ? `; gone: ${codes(comparison.answer_warnings_removed)}` : ""}`);
  }
  for (const w of report.warnings) lines.push(`WARNING: ${w}`);
  lines.push(report.warnings.length > 0 ? `drift: ${report.warnings.length} warning(s) (exit ${report.exit_code})` : `drift: nothing moved (exit ${report.exit_code})`);
  return lines;
}
