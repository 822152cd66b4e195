import { Worker } from "node:worker_threads";
import type { CalibrationResponse } from "@adrank/contracts";
import type { CalibrationRow } from "@adrank/eval-stats";
import type { ReportAnswer, ReportRequest } from "./calibration-worker.ts";

export interface CalibrationThread {
  report(rows: readonly CalibrationRow[]): Promise<CalibrationResponse>;
  close(): Promise<void>;
}

/**
 * Calibration reports off the event loop. A report bootstraps every figure 1 000 times: about
 * a second per thousand outcomes, which on the gateway's own thread would stall every other
 * request it serves (rank joins, lease renewals, health checks, console pages). One worker thread per process,
 * started on first use (loading it takes a moment, once) and again after it dies, answers the
 * reports one after another.
 */
export function createCalibrationThread(): CalibrationThread {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: CalibrationResponse) => void; reject: (e: Error) => void }>();

  const start = (): Worker => {
    const w = new Worker(new URL("./calibration-worker.ts", import.meta.url));
    w.on("message", (answer: ReportAnswer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if ("error" in answer) waiting.reject(new Error(`calibration report failed: ${answer.error}`));
      else waiting.resolve(answer.report);
    });
    const lost = (err: Error) => {
      if (worker !== w) return;
      worker = null;
      for (const waiting of pending.values()) waiting.reject(err);
      pending.clear();
    };
    w.on("error", lost);
    w.on("exit", (code) => lost(new Error(`the calibration thread exited (code ${code})`)));
    // The HTTP server keeps the process alive; an idle worker must not.
    w.unref();
    return w;
  };

  return {
    report(rows) {
      worker ??= start();
      const id = nextId++;
      const request: ReportRequest = { id, rows: [...rows] };
      return new Promise<CalibrationResponse>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker!.postMessage(request);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      for (const waiting of pending.values()) waiting.reject(new Error("the calibration thread was closed"));
      pending.clear();
      if (w) await w.terminate();
    },
  };
}
