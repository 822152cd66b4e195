import { randomUUID } from "node:crypto";
import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { assertSubjectToken, type Topology } from "./topology.ts";

export interface RouterLogger {
  warn(obj: object, msg?: string): void;
}

/** Hands a result message's body to whoever waits for the job; returns true when the wait is over. */
export type ResultHandler = (data: Uint8Array, subject: string) => boolean;

/**
 * The results of every job one process waits for, on one long-lived subscription instead of
 * one per request: a job carries `replyTo(jobId)` and the worker publishes its result there.
 * Results are handed to the waiting join by job id, the subject's last token; a result for a
 * job nobody waits for (another process's, a redelivery's second answer, a finished wait) is
 * dropped without being decoded.
 *
 * Jobs answered on the per-request subject (`topo.result`, by a worker older than `replyTo`
 * during a rolling upgrade) are heard on a second subscription; no current worker publishes
 * there, so in steady state it carries nothing.
 */
export interface ResultRouter {
  /** The subject a job's `replyTo` names for its result to reach this router. */
  replyTo(jobId: string): string;
  /** Routes the results of `jobId` to `handler` until it returns true or `forget` is called. */
  route(jobId: string, handler: ResultHandler): void;
  forget(jobId: string): void;
  /** Jobs waited for right now (for tests and metrics). */
  waiting(): number;
  /** Unsubscribes; waits already registered are no longer fed (their stop signal ends them). */
  close(): void;
}

export interface ResultRouterOptions {
  log: RouterLogger;
  /** Names this router's subjects; random by default, one per process. */
  id?: string;
}

export function startResultRouter(nc: NatsConnection, topo: Topology, opts: ResultRouterOptions): ResultRouter {
  const id = opts.id ?? randomUUID();
  const handlers = new Map<string, ResultHandler>();
  // Every reply subject is this prefix and a job id: the router's id is checked once, here.
  const replyPrefix = topo.routedResultsWildcard(id).slice(0, -1);

  const deliver = (err: Error | null, subject: string, data: Uint8Array) => {
    if (err) {
      opts.log.warn({ err, routerId: id }, "result subscription failed");
      return;
    }
    const jobId = subject.slice(subject.lastIndexOf(".") + 1);
    const handler = handlers.get(jobId);
    if (handler && handler(data, subject)) handlers.delete(jobId);
  };
  const subscriptions: Subscription[] = [
    nc.subscribe(topo.routedResultsWildcard(id), { callback: (err, msg) => deliver(err, msg.subject, msg.data) }),
    nc.subscribe(topo.resultsPerRequest, { callback: (err, msg) => deliver(err, msg.subject, msg.data) }),
  ];

  return {
    replyTo: (jobId) => replyPrefix + assertSubjectToken(jobId),
    route(jobId, handler) {
      if (handlers.has(jobId)) throw new Error(`job ${jobId} is waited for twice`);
      handlers.set(jobId, handler);
    },
    forget(jobId) {
      handlers.delete(jobId);
    },
    waiting: () => handlers.size,
    close() {
      for (const sub of subscriptions) sub.unsubscribe();
      handlers.clear();
    },
  };
}
