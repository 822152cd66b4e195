import { Worker } from "node:worker_threads";
import type { CalibrationResponse } from "@adrank/contracts";
import type { CalibrationRow } from "@adrank/eval-stats";
import type { ReportAnswer, ReportRequest } from "./calibration-worker.ts";

export interface CalibrationThread {
  /**
   * The report of `rows`. With `deadlineAt` (epoch ms) it rejects with CalibrationTimeoutError
   * once that moment passes, whether the report was still waiting for the thread (it is then
   * never started) or running (the bootstrap stops at its next checkpoint, freeing the thread).
   */
  report(rows: readonly CalibrationRow[], opts?: { deadlineAt?: number }): Promise<CalibrationResponse>;
  close(): Promise<void>;
}

/** A report given up at its deadline: the thread did not get to it in time, or it took longer. */
export class CalibrationTimeoutError extends Error {
  override name = "CalibrationTimeoutError";
  constructor() {
    super("the calibration report did not finish before its deadline");
  }
}

/** The worker's own checkpoint normally answers first; this timer is for a thread busy elsewhere. */
const DEADLINE_GRACE_MS = 50;

/**
 * Calibration reports off the event loop. A report bootstraps every figure 1 000 times: about
 * a second per thousand outcomes, which on the gateway's own thread would stall every other
 * request it serves (rank joins, lease renewals, health checks, console pages). One worker thread per process,
 * started on first use (loading it takes a moment, once) and again after it dies, answers the
 * reports one after another. A deadline per report keeps one large report from holding the
 * thread, and every report queued behind it, for longer than that.
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
      else if ("timedOut" in answer) waiting.reject(new CalibrationTimeoutError());
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
    report(rows, opts = {}) {
      worker ??= start();
      const id = nextId++;
      const request: ReportRequest = { id, rows: [...rows], deadlineAt: opts.deadlineAt ?? null };
      return new Promise<CalibrationResponse>((resolve, reject) => {
        // The answer comes at the deadline even while the thread is still busy with another
        // report: this one is then skipped when the thread reaches it.
        const timer = request.deadlineAt === null ? null : setTimeout(() => pending.get(id)?.reject(new CalibrationTimeoutError()), Math.max(0, request.deadlineAt - Date.now()) + DEADLINE_GRACE_MS);
        timer?.unref();
        const settle = <T>(f: (v: T) => void) => (v: T) => {
          if (timer) clearTimeout(timer);
          pending.delete(id);
          f(v);
        };
        pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
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
