import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connectToNats, decodeJson, encodeJson, startJobWorker, topology, WORKER_ID, type NatsConnection, type JobWorker } from "../src/index.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const Job = z.object({ requestId: z.string(), jobId: z.string(), deadline: z.number(), n: z.number(), holdMs: z.number().default(0) });
type Job = z.infer<typeof Job>;
/** What the test workers publish: the worker builds the envelope around the handler's outcome. */
const Result = z.object({ requestId: z.string(), jobId: z.string(), worker: z.string(), outcome: z.object({ ok: z.boolean(), doubled: z.number().optional(), error: z.string().optional() }) });
type Result = z.infer<typeof Result>;
const silent = { info() {}, warn() {}, error() {} };

describe("job worker over real JetStream", () => {
  const topo = topology(`t${randomUUID().slice(0, 8)}`);
  let client: NatsConnection;
  const workers: Array<{ nc: NatsConnection; worker: JobWorker }> = [];

  const startWorker = async (name: string, seen: string[]) => {
    const nc = await connectToNats({ url: NATS_URL, name });
    const worker = await startJobWorker({
      nc, topo, kind: "score", service: "scorer", schema: Job, concurrency: 2, ackWaitMs: 1_000, maxDeliver: 3, logger: silent, worker: name,
      async handle(job, { signal }) {
        seen.push(job.jobId);
        await new Promise((resolve, reject) => {
          const t = setTimeout(resolve, job.holdMs);
          signal.addEventListener("abort", () => { clearTimeout(t); reject(signal.reason); });
        });
        return { ok: true, doubled: job.n * 2 };
      },
      exhaustedError: "failed",
    });
    workers.push({ nc, worker });
    return { nc, worker };
  };

  const collect = (requestId: string, count: number, timeoutMs: number) => {
    const got: Result[] = [];
    const sub = client.subscribe(topo.resultsWildcard(requestId));
    const done = (async () => {
      const timer = setTimeout(() => sub.unsubscribe(), timeoutMs);
      for await (const m of sub) {
        got.push(Result.parse(decodeJson(m.data)));
        if (got.length >= count) break;
      }
      clearTimeout(timer);
      sub.unsubscribe();
      return got;
    })();
    return done;
  };

  const publish = async (job: Job) => {
    await jetstream(client).publish(topo.jobs.score, encodeJson(job), { msgID: job.jobId });
  };

  beforeAll(async () => {
    client = await connectToNats({ url: NATS_URL, name: "job-worker-test" });
  });
  afterAll(async () => {
    for (const w of workers) {
      await w.worker.stop().catch(() => {});
      await w.nc.close().catch(() => {});
    }
    const jsm = await jetstreamManager(client);
    await jsm.streams.delete(topo.streams.jobs.name).catch(() => {});
    await client.drain();
  });

  it("answers every job once and drops jobs past their deadline", async () => {
    await startWorker("w1", []);
    const requestId = randomUUID();
    const results = collect(requestId, 5, 5_000);
    for (let n = 0; n < 5; n++) await publish({ requestId, jobId: `j${n}`, deadline: Date.now() + 10_000, n, holdMs: 20 });
    await publish({ requestId, jobId: "late", deadline: Date.now() - 1, n: 99, holdMs: 0 });
    const got = await results;
    expect(got.map((r) => r.outcome.doubled).sort()).toEqual([0, 2, 4, 6, 8]);
    expect(got.every((r) => r.requestId === requestId && r.outcome.ok)).toBe(true);
    expect(got.some((r) => r.jobId === "late")).toBe(false);
  });

  it("sends no reply for a job that runs past its deadline", async () => {
    const requestId = randomUUID();
    const results = collect(requestId, 1, 1_500);
    await publish({ requestId, jobId: "overrun", deadline: Date.now() + 300, n: 1, holdMs: 5_000 });
    expect(await results).toEqual([]);
  });

  it("gives up on a handler that ignores its deadline, so the loop takes the next job", async () => {
    // One loop, a handler that never returns for job "stuck": without the give-up, "next" would never run.
    const nc = await connectToNats({ url: NATS_URL, name: "stuck-worker" });
    const lone = topology(`t${randomUUID().slice(0, 8)}`);
    const seen: string[] = [];
    const worker = await startJobWorker({
      nc, topo: lone, kind: "score", service: "scorer", schema: Job, concurrency: 1, ackWaitMs: 10_000, maxDeliver: 1, logger: silent,
      async handle(job) {
        seen.push(job.jobId);
        if (job.jobId === "stuck") await new Promise(() => {});
        return { ok: true };
      },
      exhaustedError: "failed",
    });
    try {
      const requestId = randomUUID();
      const sub = client.subscribe(lone.resultsWildcard(requestId), { max: 1 });
      const js = jetstream(client);
      const started = Date.now();
      await js.publish(lone.jobs.score, encodeJson({ requestId, jobId: "stuck", deadline: started + 500, n: 1 }));
      await js.publish(lone.jobs.score, encodeJson({ requestId, jobId: "next", deadline: started + 20_000, n: 2 }));
      let answered: Record<string, unknown> | null = null;
      for await (const m of sub) answered = decodeJson(m.data) as Record<string, unknown>;
      expect(answered).toEqual({ requestId, jobId: "next", worker: WORKER_ID, outcome: { ok: true } });
      // The deadline (0.5 s) plus the grace (2 s), not the ack wait or never.
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(seen).toEqual(["stuck", "next"]);
    } finally {
      await worker.stop().catch(() => {});
      await nc.close();
      await (await jetstreamManager(client)).streams.delete(lone.streams.jobs.name).catch(() => {});
    }
  });

  it("answers on the job's replyTo, on the per-request subject without one, and refuses a replyTo outside the results subjects", async () => {
    const nc = await connectToNats({ url: NATS_URL, name: "reply-worker" });
    const lone = topology(`t${randomUUID().slice(0, 8)}`);
    const seen: string[] = [];
    const worker = await startJobWorker({
      nc, topo: lone, kind: "score", service: "scorer", schema: Job.extend({ replyTo: z.string().optional() }), concurrency: 1, ackWaitMs: 10_000, maxDeliver: 1, logger: silent,
      async handle(job) {
        seen.push(job.jobId);
        return { ok: true, doubled: job.n * 2 };
      },
      exhaustedError: "failed",
    });
    try {
      const requestId = randomUUID();
      const everything = client.subscribe(">");
      const heard: string[] = [];
      void (async () => {
        for await (const m of everything) if (!m.subject.startsWith("$JS") && !m.subject.startsWith("_INBOX") && m.subject.startsWith(lone.namespace)) heard.push(m.subject);
      })();
      const js = jetstream(client);
      const deadline = Date.now() + 20_000;
      const outside = [lone.ledgerRpc.settle, lone.jobs.score, `${lone.namespace}.results.>`, lone.cancel(requestId)];
      for (const [i, replyTo] of outside.entries()) await js.publish(lone.jobs.score, encodeJson({ requestId, jobId: `bad${i}`, deadline, n: 1, replyTo }));
      await js.publish(lone.jobs.score, encodeJson({ requestId, jobId: "routed", deadline, n: 2, replyTo: lone.routedResult("gw-1", "routed") }));
      await js.publish(lone.jobs.score, encodeJson({ requestId, jobId: "plain", deadline, n: 3 }));
      await vi.waitFor(() => expect(heard.filter((s) => s.includes(".results."))).toHaveLength(2), { timeout: 5_000 });
      await client.flush();
      everything.unsubscribe();
      expect(seen).toEqual(["routed", "plain"]);
      expect(heard.filter((s) => !s.startsWith(lone.jobs.score))).toEqual([lone.routedResult("gw-1", "routed"), lone.result(requestId, "plain")]);
    } finally {
      await worker.stop().catch(() => {});
      await nc.close();
      await (await jetstreamManager(client)).streams.delete(lone.streams.jobs.name).catch(() => {});
    }
  });

  it("answers a job that failed on every delivery with the failure sentence, and shows onOutcome the handler's outcomes only", async () => {
    const nc = await connectToNats({ url: NATS_URL, name: "failing-worker" });
    const lone = topology(`t${randomUUID().slice(0, 8)}`);
    const seen: string[] = [];
    const outcomes: Array<[string, unknown]> = [];
    const worker = await startJobWorker({
      nc, topo: lone, kind: "score", service: "scorer", schema: Job, concurrency: 1, ackWaitMs: 10_000, maxDeliver: 2, logger: silent,
      async handle(job) {
        seen.push(job.jobId);
        if (job.jobId === "broken") throw new Error("boom");
        return { ok: true, doubled: job.n * 2 };
      },
      exhaustedError: "The test job failed.",
      onOutcome: (job, outcome) => outcomes.push([job.jobId, outcome]),
    });
    try {
      const requestId = randomUUID();
      const sub = client.subscribe(lone.resultsWildcard(requestId), { max: 2, timeout: 10_000 });
      const js = jetstream(client);
      await js.publish(lone.jobs.score, encodeJson({ requestId, jobId: "broken", deadline: Date.now() + 20_000, n: 1 }));
      await js.publish(lone.jobs.score, encodeJson({ requestId, jobId: "fine", deadline: Date.now() + 20_000, n: 2 }));
      const got: Result[] = [];
      for await (const m of sub) got.push(Result.parse(decodeJson(m.data)));
      expect(got.find((r) => r.jobId === "broken")).toEqual({ requestId, jobId: "broken", worker: WORKER_ID, outcome: { ok: false, error: "The test job failed." } });
      expect(got.find((r) => r.jobId === "fine")).toEqual({ requestId, jobId: "fine", worker: WORKER_ID, outcome: { ok: true, doubled: 4 } });
      // Retried once (maxDeliver 2), then answered as failed.
      expect(seen.filter((id) => id === "broken")).toHaveLength(2);
      expect(outcomes).toEqual([["fine", { ok: true, doubled: 4 }]]);
    } finally {
      await worker.stop().catch(() => {});
      await nc.close();
      await (await jetstreamManager(client)).streams.delete(lone.streams.jobs.name).catch(() => {});
    }
  });

  it("redelivers the job of a worker that died mid-job to another worker, answered once", async () => {
    for (const w of workers.splice(0)) await w.worker.stop();
    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = await startWorker("dying", seenA);
    const requestId = randomUUID();
    const results = collect(requestId, 2, 5_000);
    await publish({ requestId, jobId: "slow", deadline: Date.now() + 20_000, n: 21, holdMs: 1_500 });
    await expect.poll(() => seenA.length, { timeout: 3_000 }).toBe(1);
    // The process "dies": its connection goes away without an ack or progress signal.
    await a.nc.close();
    await startWorker("survivor", seenB);
    const got = await results; // waits for a possible duplicate too
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ jobId: "slow", worker: "survivor", outcome: { ok: true, doubled: 42 } });
    expect(seenB).toEqual(["slow"]);
  }, 15_000);
});
