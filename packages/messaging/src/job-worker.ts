import { hostname } from "node:os";
import { startDeadline } from "@adrank/runtime";
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { z } from "zod";
import { extractTraceContext, inSpan, SpanKind } from "@adrank/telemetry";
import { ensureStream, retryWhileElecting } from "./ensure-stream.ts";
import { createConfirmedPublisher } from "./confirmed-publisher.ts";
import { encodeJson } from "./json.ts";
import { startPullDispatcher } from "./pull-dispatcher.ts";
import type { Cancellations } from "./cancellations.ts";
import type { JobEnvelope, JobFailure, JobKind } from "@adrank/bus-contracts";
import type { Topology } from "./topology.ts";

const NANOS_PER_MS = 1_000_000;

/** The smallest logger the worker needs; a pino logger fits. */
export interface WorkerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** This process as a worker (host:pid): the `worker` of the results it publishes and of its presence answers. */
export const WORKER_ID = `${hostname()}:${process.pid}`;

/** A failed job's outcome: a sentence the requester can read. */
export type JobFailureOutcome = z.infer<typeof JobFailure>;

/**
 * The result message a worker publishes on the job's `replyTo` (or, for a job without one,
 * `topo.result(requestId, jobId)`): the shape of
 * bus-contracts' `jobResult(…)` schemas (ScoreResult, VoteResult, RefineResult).
 */
export interface JobResultMessage<O> {
  requestId: string;
  jobId: string;
  worker: string;
  outcome: O | JobFailureOutcome;
}

/** Where a cancelled run's job was when its cancel was seen: still in the queue, or in its handler. */
export type CancelledPhase = "queued" | "running";

export interface JobContext {
  /** Aborts at the job's deadline, when the worker stops hard and when the job's run is cancelled. */
  signal: AbortSignal;
  deliveryCount: number;
  headers: JsMsg["headers"];
}

/** How long after a job's deadline a handler that has not returned is given up on. */
export const ABANDON_GRACE_MS = 2_000;

export interface JobWorkerOptions<J extends JobEnvelope, O extends { ok: boolean }> {
  nc: NatsConnection;
  topo: Topology;
  kind: JobKind;
  /** Durable consumer base name, e.g. "scorer"; namespaced through the topology. */
  service: string;
  schema: z.ZodType<J>;
  /** Jobs one process works on at once; it pulls a message only for a free slot. */
  concurrency: number;
  ackWaitMs: number;
  maxDeliver: number;
  /** Replicas of the JOBS stream when this worker creates it (JOBS_JETSTREAM_REPLICAS). Default 1. */
  streamReplicas?: number;
  logger: WorkerLogger;
  /** Does the work; returns the job's outcome, which the worker publishes as its result. The message is acked after the result is flushed. */
  handle(job: J, ctx: JobContext): Promise<O>;
  /**
   * The error sentence of a job whose last delivery threw, published as its failure outcome:
   * the requester learns it failed instead of timing out.
   */
  exhaustedError: string;
  /** Sees each outcome the handler returns (not the exhausted failure), before it is published: for metrics. */
  onOutcome?(job: J, outcome: O): void;
  /**
   * The runs the gateway cancelled (`job.requestId` is the run): their jobs are acked without
   * a result, unrun when still queued, their signal aborted when running. Without it, jobs run to their deadline.
   */
  cancellations?: Cancellations;
  /** Told of each job dropped because its run was cancelled: for metrics. */
  onCancelled?(job: J, phase: CancelledPhase): void;
  /** The `worker` of the published results. Default WORKER_ID; tests running several workers in one process name them apart. */
  worker?: string;
  now?: () => number;
}

export interface JobWorker {
  /** Stops pulling, lets jobs in hand finish (they are acked), then resolves. */
  stop(): Promise<void>;
  inFlight(): number;
  /** Jobs of this kind waiting for any worker plus those handed out and not yet acked. */
  backlog(): Promise<number>;
}

/**
 * Works on up to `concurrency` jobs at once from a durable JetStream consumer. Explicit acks with
 * in-progress signals keep a long model call from being redelivered; a worker that dies
 * stops signalling and its job goes to another worker after `ackWaitMs`.
 */
export async function startJobWorker<J extends JobEnvelope, O extends { ok: boolean }>(opts: JobWorkerOptions<J, O>): Promise<JobWorker> {
  const { nc, topo, kind, logger } = opts;
  const now = opts.now ?? Date.now;
  const worker = opts.worker ?? WORKER_ID;
  const handle = async (job: J, ctx: JobContext): Promise<O> => {
    const outcome = await opts.handle(job, ctx);
    opts.onOutcome?.(job, outcome);
    return outcome;
  };
  const jsm = await jetstreamManager(nc);
  await ensureStream(jsm, topo.streams.jobs, opts.streamReplicas ?? 1);
  const durable = topo.consumer(opts.service);
  const config = {
    durable_name: durable,
    filter_subject: topo.jobs[kind],
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: opts.ackWaitMs * NANOS_PER_MS,
    max_deliver: opts.maxDeliver,
    max_ack_pending: 10_000,
  };
  await retryWhileElecting(async () => {
    try {
      await jsm.consumers.add(topo.streams.jobs.name, config);
    } catch (err) {
      // Another replica created it first, possibly with older settings: bring it up to date.
      if (!(err instanceof Error && /already (exists|in use)/i.test(err.message))) throw err;
      const { durable_name: _d, filter_subject: _f, deliver_policy: _p, ack_policy: _a, ...updatable } = config;
      await jsm.consumers.update(topo.streams.jobs.name, durable, updatable);
    }
  });
  const consumer = await jetstream(nc).consumers.get(topo.streams.jobs.name, durable);

  const publishConfirmed = createConfirmedPublisher(nc);
  const hardStop = new AbortController();

  // The gateway stopped listening for the run's results: the job is done, with no result and no retry.
  const dropCancelled = (msg: JsMsg, job: J, phase: CancelledPhase) => {
    msg.ack();
    logger.info({ seq: msg.seq, requestId: job.requestId, jobId: job.jobId, phase }, "job of a cancelled run: dropped");
    opts.onCancelled?.(job, phase);
  };

  const process = async (msg: JsMsg): Promise<void> => {
    const deliveryCount = msg.info.deliveryCount;
    let job: J;
    try {
      job = opts.schema.parse(JSON.parse(msg.string()));
    } catch (err) {
      logger.error({ err, subject: msg.subject, seq: msg.seq }, "malformed job: terminated");
      // No reason: nats-server 2.9 ignores a TERM that carries one and redelivers the message.
      msg.term();
      return;
    }
    // A job names where its result goes; it may name only a results subject.
    if (job.replyTo !== undefined && !topo.isResultSubject(job.replyTo)) {
      logger.error({ subject: msg.subject, seq: msg.seq, replyTo: job.replyTo }, "job replies outside the results subjects: terminated");
      msg.term();
      return;
    }
    if (opts.cancellations?.isCancelled(job.requestId)) {
      dropCancelled(msg, job, "queued");
      return;
    }
    const deadline = job.deadline;
    const remaining = deadline - now();
    if (remaining <= 0) {
      logger.warn({ seq: msg.seq, lateByMs: -remaining }, "job past its deadline: dropped");
      msg.term();
      return;
    }
    const progress = setInterval(() => msg.working(), Math.max(250, Math.floor(opts.ackWaitMs / 3)));
    const jobDeadline = startDeadline(remaining);
    const deadlineReached = jobDeadline.signal;
    const cancelled = opts.cancellations?.signalFor(job.requestId);
    const signal = AbortSignal.any([deadlineReached, hardStop.signal, ...(cancelled ? [cancelled] : [])]);
    let abandon: NodeJS.Timeout | undefined;
    try {
      let outcome: O | JobFailureOutcome;
      try {
        const handled = inSpan(
          `${kind} job`,
          {
            kind: SpanKind.CONSUMER,
            parent: extractTraceContext(msg.headers),
            attributes: { "messaging.system": "nats", "messaging.destination.name": msg.subject, "messaging.consumer.group.name": durable, "adrank.delivery": deliveryCount, "adrank.service": opts.service },
          },
          () => handle(job, { signal, deliveryCount, headers: msg.headers }),
        );
        // A handler that ignores its abort signal (a library call with no time-out of its own)
        // must not hold its slot for ever: past the deadline, nobody waits for its answer.
        const abandoned = new Promise<"abandoned">((resolve) => (abandon = setTimeout(() => resolve("abandoned"), remaining + ABANDON_GRACE_MS)));
        const first = await Promise.race([handled, abandoned]);
        if (first === "abandoned") {
          handled.catch(() => {});
          logger.error({ seq: msg.seq, deliveryCount, graceMs: ABANDON_GRACE_MS }, "job handler did not return after its deadline: abandoned, no reply");
          msg.term();
          return;
        }
        if (cancelled?.aborted) {
          dropCancelled(msg, job, "running");
          return;
        }
        outcome = first;
      } catch (err) {
        if (cancelled?.aborted) {
          dropCancelled(msg, job, "running");
          return;
        }
        if (deadlineReached.aborted || now() >= deadline) {
          // Whoever waited has answered "time limit" already; a late failure reply would
          // race that answer and could replace it with a less true reason.
          logger.warn({ seq: msg.seq, deliveryCount }, "job ran past its deadline: no reply");
          msg.term();
          return;
        }
        if (deliveryCount < opts.maxDeliver && !signal.aborted) {
          logger.warn({ err, seq: msg.seq, deliveryCount }, "job failed: will be retried");
          msg.nak(1_000);
          return;
        }
        logger.error({ err, seq: msg.seq, deliveryCount }, "job failed on its last delivery");
        outcome = { ok: false, error: opts.exhaustedError };
      }
      const result: JobResultMessage<O> = { requestId: job.requestId, jobId: job.jobId, worker, outcome };
      // The result must have reached the server before the job leaves the queue: acked first,
      // a result lost with this process (or its connection) would leave a job that is neither
      // answered nor redelivered. Results finishing together share the flush that confirms them.
      await publishConfirmed(job.replyTo ?? topo.result(job.requestId, job.jobId), encodeJson(result));
      msg.ack();
    } finally {
      clearInterval(progress);
      clearTimeout(abandon);
      jobDeadline.clear();
    }
  };

  const dispatcher = startPullDispatcher({ consumer, slots: Math.max(1, opts.concurrency), handle: process, logger });
  logger.info({ durable, kind, concurrency: opts.concurrency }, "job worker started");

  return {
    async stop() {
      await dispatcher.stop();
    },
    inFlight: () => dispatcher.busy(),
    async backlog(): Promise<number> {
      const info = await jsm.consumers.info(topo.streams.jobs.name, durable);
      return info.num_pending + info.num_ack_pending;
    },
  };
}
