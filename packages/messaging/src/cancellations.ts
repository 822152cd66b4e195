import type { NatsConnection } from "@nats-io/transport-node";
import type { Topology } from "./topology.ts";

/** How long a worker remembers a cancelled run: longer than any job of it can wait in the queue or run. */
const RETENTION_MS = 5 * 60_000;
/** Most runs remembered at once, cancelled and watched each; past it the oldest are forgotten first. */
const MAX_RUNS = 10_000;

/** The reason a cancelled run's signal aborts with, so a handler can tell it from its deadline. */
export class RunCancelledError extends Error {
  override name = "RunCancelledError";
  readonly runId: string;
  constructor(runId: string) {
    super(`run ${runId} was cancelled`);
    this.runId = runId;
  }
}

export function isRunCancelled(err: unknown): err is RunCancelledError {
  return err instanceof RunCancelledError;
}

/**
 * Tells every worker that a run ended early (its client left, its deadline passed, it
 * failed): its queued jobs are dropped and its running ones stop before their next model
 * call. Core NATS, fire and forget: a cancel that is lost only lets the jobs run to their
 * deadline, as they did before cancels existed, so it never throws and never waits.
 *
 * @example publishCancel(app.bus.nc, app.bus.topo, runId);
 */
export function publishCancel(nc: NatsConnection, topo: Topology, runId: string): void {
  try {
    nc.publish(topo.cancel(runId));
  } catch {
    // A closed connection or an id that is no subject token: nothing to cancel through.
  }
}

/** What a worker process knows of cancelled runs. */
export interface Cancellations {
  /** A cancel for the run arrived in the last few minutes. */
  isCancelled(runId: string): boolean;
  /** Aborts, with a RunCancelledError, when a cancel for the run arrives; already aborted when one has. */
  signalFor(runId: string): AbortSignal;
  /** Stops listening; signals handed out no longer abort. */
  close(): void;
}

export interface CancellationOptions {
  retentionMs?: number;
  maxRuns?: number;
  now?: () => number;
}

/**
 * Listens, once per process, to every run's cancel and remembers the cancelled runs for a
 * bounded time: a cancel often arrives before the run's last jobs are pulled from the queue.
 * Each process hears every cancel (no queue group), since any replica may hold a job of the run.
 */
export function watchCancellations(nc: NatsConnection, topo: Topology, options: CancellationOptions = {}): Cancellations {
  const retentionMs = options.retentionMs ?? RETENTION_MS;
  const maxRuns = options.maxRuns ?? MAX_RUNS;
  const now = options.now ?? Date.now;
  // Both in order of last touch (a touch re-inserts), so expiry and the size bound trim from the front.
  const cancelled = new Map<string, number>();
  // Runs whose jobs asked for a signal, kept as long as a cancelled run is: no job outlives that.
  const watched = new Map<string, { controller: AbortController; expiresAt: number }>();

  const trim = <V>(runs: Map<string, V>, expiresAt: (v: V) => number) => {
    const t = now();
    for (const [runId, run] of runs) {
      if (expiresAt(run) > t && runs.size <= maxRuns) break;
      runs.delete(runId);
    }
  };
  const isCancelled = (runId: string) => (cancelled.get(runId) ?? 0) > now();

  const cancel = (runId: string) => {
    cancelled.delete(runId);
    cancelled.set(runId, now() + retentionMs);
    trim(cancelled, (expiresAt) => expiresAt);
    const run = watched.get(runId);
    watched.delete(runId);
    run?.controller.abort(new RunCancelledError(runId));
  };

  const sub = nc.subscribe(topo.cancelAll, {
    callback: (err, msg) => {
      if (err) return;
      cancel(msg.subject.slice(msg.subject.lastIndexOf(".") + 1));
    },
  });

  return {
    isCancelled,
    signalFor(runId) {
      if (isCancelled(runId)) return AbortSignal.abort(new RunCancelledError(runId));
      const run = watched.get(runId) ?? { controller: new AbortController(), expiresAt: 0 };
      watched.delete(runId);
      run.expiresAt = now() + retentionMs;
      watched.set(runId, run);
      trim(watched, (r) => r.expiresAt);
      return run.controller.signal;
    },
    close() {
      sub.unsubscribe();
      cancelled.clear();
      watched.clear();
    },
  };
}
