import { parentPort } from "node:worker_threads";
import type { CalibrationResponse } from "@adrank/contracts";
import { calibrationReport, type CalibrationRow } from "@adrank/eval-stats";

// The body of the calibration thread (calibration-thread.ts): one report per message, in order.
// It lives with the runtime so that the gateway and the console share one copy.

export interface ReportRequest {
  id: number;
  rows: CalibrationRow[];
}
export type ReportAnswer = { id: number; report: CalibrationResponse } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error("calibration-worker.ts runs as a worker thread only");
port.on("message", ({ id, rows }: ReportRequest) => {
  let answer: ReportAnswer;
  try {
    answer = { id, report: calibrationReport(rows) };
  } catch (err) {
    answer = { id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  port.postMessage(answer);
});
