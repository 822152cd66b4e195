import { decodeJson } from "./json.ts";
import type { ResultRouter } from "./result-router.ts";

export interface JoinLogger {
  warn(obj: object, msg?: string): void;
}

export interface ResultJoinOptions<T> {
  /** Fires at the deadline or when the requester gives up. */
  stop: AbortSignal;
  /** What a job still waiting gets when `stop` fires. */
  onStop(): T;
  /** Turns a result message's JSON into the caller's outcome; throws on a malformed result. */
  decode(payload: unknown): T;
  log: JoinLogger;
}

export interface ResultJoin<T> {
  /** Registers interest in a job before it is published; resolves with its first result. */
  expect(jobId: string): Promise<T>;
  /** The `replyTo` the job must carry for its result to reach this join. */
  replyTo(jobId: string): string;
  /** Ends the wait for a job that could not be published. */
  fail(jobId: string, outcome: T): void;
  close(): void;
}

/**
 * Collects the results of a set of jobs (one request's scoring, its refinement, a panel
 * session) through the process's result router. Expect a job before publishing it: the
 * router is subscribed from start-up, so its result cannot arrive before anyone waits. Only
 * jobs this join expects are decoded, and the first valid result per job wins: a redelivered
 * job may answer twice, and a malformed result leaves the job waiting.
 */
export function openResultJoin<T>(router: ResultRouter, opts: ResultJoinOptions<T>): ResultJoin<T> {
  const waiting = new Map<string, (outcome: T) => void>();

  const settle = (jobId: string, outcome: T) => {
    const resolve = waiting.get(jobId);
    if (!resolve) return;
    waiting.delete(jobId);
    router.forget(jobId);
    resolve(outcome);
  };

  const onStop = () => {
    for (const jobId of [...waiting.keys()]) settle(jobId, opts.onStop());
  };
  opts.stop.addEventListener("abort", onStop, { once: true });

  return {
    expect(jobId) {
      if (opts.stop.aborted) return Promise.resolve(opts.onStop());
      return new Promise((resolve) => {
        router.route(jobId, (data, subject) => {
          let outcome: T;
          try {
            outcome = opts.decode(decodeJson(data));
          } catch (parseErr) {
            opts.log.warn({ err: parseErr, subject }, "malformed result ignored");
            return false;
          }
          waiting.delete(jobId);
          resolve(outcome);
          return true;
        });
        waiting.set(jobId, resolve);
      });
    },
    replyTo: (jobId) => router.replyTo(jobId),
    fail(jobId, outcome) {
      settle(jobId, outcome);
    },
    close() {
      opts.stop.removeEventListener("abort", onStop);
      onStop();
    },
  };
}
