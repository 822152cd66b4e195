import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import {
  connectToNats,
  decodeJson,
  encodeJson,
  isRunCancelled,
  publishCancel,
  startJobWorker,
  topology,
  watchCancellations,
  type CancelledPhase,
  type Cancellations,
  type JobWorker,
  type NatsConnection,
  type Topology,
} from "../src/index.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const Job = z.object({ requestId: z.string(), jobId: z.string(), deadline: z.number(), holdMs: z.number().default(0) });
type Job = z.infer<typeof Job>;
const silent = { info() {}, warn() {}, error() {} };

/** Waits on the signal as a model call does: rejects with its reason when it aborts. */
const hold = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

describe("cancellations over real NATS", () => {
  const topo = topology(`t${randomUUID().slice(0, 8)}`);
  let gateway: NatsConnection;
  let workerNc: NatsConnection;
  let cancellations: Cancellations;

  beforeAll(async () => {
    gateway = await connectToNats({ url: NATS_URL, name: "cancel-test-gateway" });
    workerNc = await connectToNats({ url: NATS_URL, name: "cancel-test-worker" });
    cancellations = watchCancellations(workerNc, topo);
    await workerNc.flush();
  });
  afterAll(async () => {
    cancellations.close();
    await workerNc.drain();
    await gateway.drain();
  });

  it("remembers a cancelled run and aborts its signals with a RunCancelledError; other runs are unaffected", async () => {
    const run = randomUUID();
    const other = randomUUID();
    const signal = cancellations.signalFor(run);
    const otherSignal = cancellations.signalFor(other);
    expect(cancellations.isCancelled(run)).toBe(false);
    publishCancel(gateway, topo, run);
    await expect.poll(() => signal.aborted, { timeout: 1_000, interval: 5 }).toBe(true);
    expect(isRunCancelled(signal.reason)).toBe(true);
    expect(cancellations.isCancelled(run)).toBe(true);
    // A job delivered after the cancel gets a signal that has aborted already.
    expect(cancellations.signalFor(run).aborted).toBe(true);
    expect(otherSignal.aborted).toBe(false);
    expect(cancellations.isCancelled(other)).toBe(false);
  });

  it("publishCancel never throws: not a subject token, a closed connection", async () => {
    expect(() => publishCancel(gateway, topo, "a.b")).not.toThrow();
    const closed = await connectToNats({ url: NATS_URL, name: "cancel-test-closed" });
    await closed.close();
    expect(() => publishCancel(closed, topo, randomUUID())).not.toThrow();
  });

  it("forgets a cancel after its retention, and the oldest beyond its bound", async () => {
    let now = 1_000;
    const nc = await connectToNats({ url: NATS_URL, name: "cancel-test-retention" });
    const lone = topology(`t${randomUUID().slice(0, 8)}`);
    const bounded = watchCancellations(nc, lone, { retentionMs: 60_000, maxRuns: 2, now: () => now });
    try {
      await nc.flush();
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      for (const run of [a, b]) publishCancel(gateway, lone, run);
      await expect.poll(() => bounded.isCancelled(b), { timeout: 1_000, interval: 5 }).toBe(true);
      now += 59_000;
      expect(bounded.isCancelled(a)).toBe(true);
      publishCancel(gateway, lone, c);
      await expect.poll(() => bounded.isCancelled(c), { timeout: 1_000, interval: 5 }).toBe(true);
      expect(bounded.isCancelled(a)).toBe(false);
      expect(bounded.isCancelled(b)).toBe(true);
      now += 2_000;
      expect(bounded.isCancelled(b)).toBe(false);
      expect(bounded.isCancelled(c)).toBe(true);
    } finally {
      bounded.close();
      await nc.close();
    }
  });

  describe("in the job worker", () => {
    let worker: JobWorker;
    const ran: string[] = [];
    const aborted = new Map<string, number>();
    const dropped: Array<[string, CancelledPhase]> = [];
    const results: string[] = [];

    const publish = (job: Omit<Job, "holdMs"> & { holdMs?: number }) => jetstream(gateway).publish(topo.jobs.score, encodeJson(job), { msgID: job.jobId });
    const backlog = async (t: Topology) => {
      const info = await (await jetstreamManager(gateway)).consumers.info(t.streams.jobs.name, t.consumer("scorer"));
      return info.num_pending + info.num_ack_pending;
    };

    beforeAll(async () => {
      gateway.subscribe(topo.resultsAll, { callback: (_err, msg) => void results.push((decodeJson(msg.data) as { jobId: string }).jobId) });
      worker = await startJobWorker({
        nc: workerNc, topo, kind: "score", service: "scorer", schema: Job, concurrency: 2, ackWaitMs: 1_000, maxDeliver: 3, logger: silent, cancellations,
        async handle(job, { signal }) {
          ran.push(job.jobId);
          try {
            await hold(job.holdMs, signal);
          } catch (err) {
            aborted.set(job.jobId, Date.now());
            throw err;
          }
          return { ok: true };
        },
        exhaustedError: "failed",
        onCancelled: (job, phase) => dropped.push([job.jobId, phase]),
      });
    });
    afterAll(async () => {
      await worker.stop();
      await (await jetstreamManager(gateway)).streams.delete(topo.streams.jobs.name).catch(() => {});
    });

    it("acks a job of a run cancelled before it was delivered without running it or answering it", async () => {
      const run = randomUUID();
      publishCancel(gateway, topo, run);
      await expect.poll(() => cancellations.isCancelled(run), { timeout: 1_000, interval: 5 }).toBe(true);
      await publish({ requestId: run, jobId: "queued-1", deadline: Date.now() + 10_000 });
      await expect.poll(() => dropped, { timeout: 3_000 }).toContainEqual(["queued-1", "queued"]);
      expect(ran).not.toContain("queued-1");
      await expect.poll(() => backlog(topo), { timeout: 2_000 }).toBe(0);
      expect(results).not.toContain("queued-1");
    });

    it("aborts a running job within 100 ms of the cancel, acks it without a result and never redelivers it; another run's job finishes", async () => {
      const run = randomUUID();
      const other = randomUUID();
      await publish({ requestId: run, jobId: "running-1", deadline: Date.now() + 20_000, holdMs: 15_000 });
      await publish({ requestId: other, jobId: "other-1", deadline: Date.now() + 20_000, holdMs: 1_500 });
      await expect.poll(() => ran, { timeout: 3_000 }).toEqual(expect.arrayContaining(["running-1", "other-1"]));
      const sentAt = Date.now();
      publishCancel(gateway, topo, run);
      await expect.poll(() => aborted.has("running-1"), { timeout: 1_000, interval: 5 }).toBe(true);
      expect(aborted.get("running-1")! - sentAt).toBeLessThan(100);
      await expect.poll(() => dropped, { timeout: 1_000 }).toContainEqual(["running-1", "running"]);
      await expect.poll(() => results, { timeout: 5_000 }).toContain("other-1");
      expect(aborted.has("other-1")).toBe(false);
      // Past two ack waits: a nakked or unacked job would have come back by now.
      await sleep(2_500);
      expect(ran.filter((id) => id === "running-1")).toHaveLength(1);
      expect(results).not.toContain("running-1");
      expect(await backlog(topo)).toBe(0);
    }, 15_000);
  });
});
