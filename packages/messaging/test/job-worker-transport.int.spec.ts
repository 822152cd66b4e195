import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connectToNats, encodeJson, startJobWorker, topology, type JobWorker, type NatsConnection, type Topology } from "../src/index.ts";

// How the job worker uses the bus: how many jobs it holds, how it stops, when it acks.
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const Job = z.object({ requestId: z.string(), jobId: z.string(), deadline: z.number(), holdMs: z.number().default(0) });
const silent = { info() {}, warn() {}, error() {} };

describe("job worker on the bus", () => {
  let client: NatsConnection;
  let jsm: JetStreamManager;
  let topo: Topology;
  const cleanup: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    client = await connectToNats({ url: NATS_URL, name: "job-worker-transport-test" });
    jsm = await jetstreamManager(client);
  });
  afterEach(async () => {
    for (const undo of cleanup.splice(0).reverse()) await undo().catch(() => {});
    await jsm.streams.delete(topo.streams.jobs.name).catch(() => {});
  });
  afterAll(async () => {
    await client.drain();
  });

  /** A worker on its own connection whose handler holds each job `holdMs`; `active` and `peak` count jobs in its handler. */
  const startWorker = async (name: string, concurrency: number, opts: { ackWaitMs?: number } = {}) => {
    const nc = await connectToNats({ url: NATS_URL, name });
    const stats = { seen: [] as string[], active: 0, peak: 0 };
    const worker: JobWorker = await startJobWorker({
      nc, topo, kind: "score", service: "scorer", schema: Job, concurrency, ackWaitMs: opts.ackWaitMs ?? 10_000, maxDeliver: 3, logger: silent, worker: name, exhaustedError: "failed",
      async handle(job) {
        stats.seen.push(job.jobId);
        stats.peak = Math.max(stats.peak, ++stats.active);
        await new Promise((resolve) => setTimeout(resolve, job.holdMs));
        stats.active--;
        return { ok: true };
      },
    });
    cleanup.push(() => nc.close(), () => worker.stop());
    return { nc, worker, stats };
  };
  const publish = (requestId: string, jobId: string, holdMs = 0) =>
    jetstream(client).publish(topo.jobs.score, encodeJson({ requestId, jobId, deadline: Date.now() + 20_000, holdMs }), { msgID: `${requestId}:${jobId}` });
  /** Resolves with the worker that answered each job, once `count` results have arrived. */
  const answers = (requestId: string, count: number) => {
    const sub = client.subscribe(topo.resultsWildcard(requestId), { max: count, timeout: 15_000 });
    return (async () => {
      const byJob = new Map<string, string>();
      for await (const m of sub) {
        const r = JSON.parse(m.string()) as { jobId: string; worker: string };
        byJob.set(r.jobId, r.worker);
      }
      return byJob;
    })();
  };
  const ackPending = async () => (await jsm.consumers.info(topo.streams.jobs.name, topo.consumer("scorer"))).num_ack_pending;

  it("holds no more jobs than it has slots, so workers sharing a consumer split the work", async () => {
    topo = topology(`t${randomUUID().slice(0, 8)}`);
    const a = await startWorker("a", 2);
    const b = await startWorker("b", 2);
    const requestId = randomUUID();
    const answered = answers(requestId, 8);
    let peakAckPending = 0;
    const sampling = setInterval(() => void ackPending().then((n) => (peakAckPending = Math.max(peakAckPending, n)), () => {}), 20);
    cleanup.push(async () => clearInterval(sampling));
    for (let i = 0; i < 8; i++) await publish(requestId, `j${i}`, 300);
    const byJob = await answered;
    clearInterval(sampling);

    expect(byJob.size).toBe(8);
    expect(a.stats.peak).toBeLessThanOrEqual(2);
    expect(b.stats.peak).toBeLessThanOrEqual(2);
    // 8 jobs of 300 ms on 2 + 2 slots: each worker does its share instead of one taking them all.
    expect(a.stats.seen.length).toBeGreaterThanOrEqual(2);
    expect(b.stats.seen.length).toBeGreaterThanOrEqual(2);
    // Handed out and not yet acked, as the server counts it: never more than the 4 slots.
    expect(peakAckPending).toBeGreaterThan(0);
    expect(peakAckPending).toBeLessThanOrEqual(4);
  });

  it("stops at once while a pull is waiting, and leaves the next job to another worker", async () => {
    topo = topology(`t${randomUUID().slice(0, 8)}`);
    const idle = await startWorker("idle", 4);
    await new Promise((resolve) => setTimeout(resolve, 300)); // its pull (2 s) is waiting at the server
    const started = Date.now();
    await idle.worker.stop();
    expect(Date.now() - started).toBeLessThan(500);

    // The stopped worker's connection stays open: its closed pull must not swallow the job
    // (that would hold it until the ack wait, 10 s here).
    await startWorker("other", 4);
    const requestId = randomUUID();
    const answered = answers(requestId, 1);
    const sent = Date.now();
    await publish(requestId, "after-stop");
    expect((await answered).get("after-stop")).toBe("other");
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(idle.stats.seen).toEqual([]);
  });

  it("pulls and flushes for many jobs at once rather than once per job", async () => {
    topo = topology(`t${randomUUID().slice(0, 8)}`);
    const requestId = randomUUID();
    // Create the consumer, then queue the jobs while no worker runs.
    await (await startWorker("setup", 1)).worker.stop();
    for (let i = 0; i < 48; i++) await publish(requestId, `j${i}`);
    const nc = await connectToNats({ url: NATS_URL, name: "counted" });
    const calls = { subscribe: 0, flush: 0 };
    const subscribe = nc.subscribe.bind(nc);
    const flush = nc.flush.bind(nc);
    nc.subscribe = (...args: Parameters<typeof subscribe>) => (calls.subscribe++, subscribe(...args));
    nc.flush = () => (calls.flush++, flush());
    const answered = answers(requestId, 48);
    const worker = await startJobWorker({ nc, topo, kind: "score", service: "scorer", schema: Job, concurrency: 16, ackWaitMs: 10_000, maxDeliver: 3, logger: silent, exhaustedError: "failed", handle: async () => ({ ok: true }) });
    cleanup.push(() => nc.close(), () => worker.stop());
    expect((await answered).size).toBe(48);
    await expect.poll(ackPending).toBe(0);
    // One subscription and one round trip per job before; now they are shared by the jobs pulled or finished together.
    expect(calls.subscribe).toBeLessThanOrEqual(12);
    expect(calls.flush).toBeLessThanOrEqual(24);
  });

  it("acks a job only after the flush behind its result has returned", async () => {
    topo = topology(`t${randomUUID().slice(0, 8)}`);
    const { nc } = await startWorker("gated", 2);
    // Hold every flush of the worker's connection until the test lets it go.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const flush = nc.flush.bind(nc);
    let flushes = 0;
    nc.flush = async () => {
      flushes++;
      await flush();
      await gate;
    };
    const requestId = randomUUID();
    const answered = answers(requestId, 1);
    await publish(requestId, "gated");
    // The result is out (the requester has it) but the job is still on the queue, unacked.
    expect((await answered).get("gated")).toBe("gated");
    expect(flushes).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await ackPending()).toBe(1);
    release();
    await expect.poll(ackPending, { timeout: 2_000 }).toBe(0);
  });
});
