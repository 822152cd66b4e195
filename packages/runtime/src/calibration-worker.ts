import { parentPort } from "node:worker_threads";
import type { CalibrationResponse } from "@adrank/contracts";
import { calibrationReport, type CalibrationRow } from "@adrank/eval-stats";

// The body of the calibration thread (calibration-thread.ts): one report per message, in order.
// It lives with the runtime so that the gateway and the console share one copy.

export interface ReportRequest {
  id: number;
  rows: CalibrationRow[];
  /** Epoch ms after which the report is given up: not started when it is past, stopped when it passes. */
  deadlineAt: number | null;
}
export type ReportAnswer = { id: number; report: CalibrationResponse } | { id: number; timedOut: true } | { id: number; error: string };

/** Thrown by the checkpoint to leave the bootstrap: never escapes this file. */
class PastDeadline extends Error {}

const port = parentPort;
if (!port) throw new Error("calibration-worker.ts runs as a worker thread only");
port.on("message", ({ id, rows, deadlineAt }: ReportRequest) => {
  let answer: ReportAnswer;
  const checkpoint = () => {
    if (deadlineAt !== null && Date.now() > deadlineAt) throw new PastDeadline();
  };
  try {
    // A report that waited past its deadline behind others is not started at all.
    checkpoint();
    answer = { id, report: calibrationReport(rows, { checkpoint }) };
  } catch (err) {
    answer = err instanceof PastDeadline ? { id, timedOut: true } : { id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  port.postMessage(answer);
});
