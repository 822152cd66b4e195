import type { RankResponse } from "@adrank/contracts";
import type { DriftRunRecord, DriftRunsRepository } from "@adrank/db/repositories";
import { compareDriftRuns, type DriftRun, type DriftThresholds } from "@adrank/eval-stats";
import type { RankInput } from "@adrank/sdk";
import { DriftError } from "./drift-error.ts";
import { driftErrorReport, driftReportLines, driftReportOf, type DriftReport } from "./drift-report.ts";
import { DRIFT_EXIT, type DriftExitCode } from "./exit-codes.ts";
import type { ReferenceBatch } from "./reference-batch.ts";
import { driftRunOfAnswer } from "./run-of-answer.ts";

/** The one API call the drift watch makes; the SDK's client is one (it retries, with an Idempotency-Key). */
export interface DriftClient {
  rank(request: RankInput): Promise<{ data: RankResponse }>;
}

/** Where runs are kept: the drift_runs repository, or an in-memory one in tests. */
export type DriftRunStore = Pick<DriftRunsRepository, "insert" | "latestOfBatch" | "latest">;

export interface DriftDeps {
  client: DriftClient;
  runs: DriftRunStore;
  batch: ReferenceBatch;
  thresholds: DriftThresholds;
  /** Print the report as one JSON document instead of lines. */
  json: boolean;
  /** The report (stdout). */
  out(line: string): void;
  /** Errors (stderr). */
  err(line: string): void;
}

export interface DriftOutcome {
  exitCode: DriftExitCode;
  /** Null when the run failed: nothing was stored. */
  report: DriftReport | null;
}

const comparable = (r: DriftRunRecord): DriftRun => ({ batchHash: r.batchHash, receipt: r.receipt, scores: r.scores, warningCodes: r.warnings.map((w) => w.code) });

const reason = (err: unknown): string => {
  if (err instanceof DriftError) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause ? ` (${err.cause instanceof Error ? err.cause.message : String(err.cause)})` : "";
  return `failed: ${message}${cause}`;
};

/**
 * One run of the drift watch: ranks the reference batch, stores the run, compares it with the
 * last stored run of the same batch and prints the report. Exit 0 when nothing moved (and on
 * a first run or a changed batch, which store a baseline), 3 when it warned, 1 when the batch
 * could not be ranked whole or stored (then nothing is stored).
 */
export async function runDrift(deps: DriftDeps): Promise<DriftOutcome> {
  try {
    // Looked up before ranking: the run about to be stored must not be its own baseline.
    const previous = (await deps.runs.latestOfBatch(deps.batch.hash)) ?? (await deps.runs.latest());
    const { data } = await deps.client.rank(deps.batch.request);
    const run = await deps.runs.insert(driftRunOfAnswer(data, deps.batch));
    const comparison = previous ? compareDriftRuns(comparable(previous), comparable(run), deps.thresholds) : null;
    const report = driftReportOf({ run, previous, comparison, thresholds: deps.thresholds });
    if (deps.json) deps.out(JSON.stringify(report, null, 2));
    else for (const line of driftReportLines(report)) deps.out(line);
    return { exitCode: report.exit_code, report };
  } catch (err) {
    const message = reason(err);
    deps.err(`drift: ${message}`);
    if (deps.json) deps.out(JSON.stringify(driftErrorReport(message), null, 2));
    return { exitCode: DRIFT_EXIT.error, report: null };
  }
}
