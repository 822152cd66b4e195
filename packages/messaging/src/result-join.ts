import type { NatsConnection } from "@nats-io/transport-node";
import { decodeJson } from "./json.ts";
import type { Topology } from "./topology.ts";

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
  /** Ends the wait for a job that could not be published. */
  fail(jobId: string, outcome: T): void;
  close(): void;
}

/**
 * Collects the results of one request's jobs from `results.<requestId>.*`. Subscribe
 * before publishing: NATS keeps one connection's protocol in order, so the server has the
 * subscription before a job can reach a worker. Only jobs this join expects are decoded,
 * so several joins (rank scoring, refinement, panels) can share a request id. The first
 * result per job wins: a redelivered job may answer twice.
 */
export function openResultJoin<T>(nc: NatsConnection, topo: Topology, requestId: string, opts: ResultJoinOptions<T>): ResultJoin<T> {
  const waiting = new Map<string, (outcome: T) => void>();
  const prefix = topo.resultsWildcard(requestId).slice(0, -1);

  const settle = (jobId: string, outcome: T) => {
    const resolve = waiting.get(jobId);
    if (!resolve) return;
    waiting.delete(jobId);
    resolve(outcome);
  };

  const sub = nc.subscribe(topo.resultsWildcard(requestId), {
    callback: (err, msg) => {
      if (err) {
        opts.log.warn({ err, requestId }, "result subscription failed");
        return;
      }
      const jobId = msg.subject.slice(prefix.length);
      if (!waiting.has(jobId)) return; // another join's job, or a redelivery's second answer
      let outcome: T;
      try {
        outcome = opts.decode(decodeJson(msg.data));
      } catch (parseErr) {
        opts.log.warn({ err: parseErr, subject: msg.subject }, "malformed result ignored");
        return;
      }
      settle(jobId, outcome);
    },
  });

  const onStop = () => {
    for (const jobId of [...waiting.keys()]) settle(jobId, opts.onStop());
  };
  opts.stop.addEventListener("abort", onStop, { once: true });

  return {
    expect(jobId) {
      if (opts.stop.aborted) return Promise.resolve(opts.onStop());
      return new Promise((resolve) => waiting.set(jobId, resolve));
    },
    fail(jobId, outcome) {
      settle(jobId, outcome);
    },
    close() {
      opts.stop.removeEventListener("abort", onStop);
      sub.unsubscribe();
      onStop();
    },
  };
}
