import type { Server } from "node:http";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { envInt, type HealthChecks } from "@adrank/runtime";
import { decodeJson } from "../src/json.ts";
import { WORKER_ID, type JobWorker, type JobWorkerOptions } from "../src/job-worker.ts";
import type { Cancellations } from "../src/cancellations.ts";
import type { NatsConnection, NatsOptions } from "../src/connect.ts";
import { runWorkerService, workerPlan, type WorkerServiceIo } from "../src/worker-service.ts";
import { workerServiceEnv } from "../src/worker-service-env.ts";

const TestEnv = workerServiceEnv({ TEST_CONCURRENCY: envInt(3, 1, 10) });
const TestJob = z.object({ requestId: z.string(), jobId: z.string(), deadline: z.number() });

/** A process stand-in: every start-up and shutdown call lands in `calls`, in order. */
function fakeProcess(env: Record<string, string> = {}) {
  const calls: string[] = [];
  let closed = false;
  let presence: { subject: string; queue: string; answer: () => unknown } | null = null;
  const nc = {
    isClosed: () => closed,
    flush: async () => void calls.push("flush NATS"),
    drain: async () => {
      calls.push("drain NATS");
      closed = true;
    },
    subscribe: (subject: string, opts: { queue: string; callback: (err: unknown, msg: { respond(data: Uint8Array): void }) => void }) => {
      calls.push(`answer presence on ${subject}`);
      let reply: unknown;
      presence = {
        subject,
        queue: opts.queue,
        answer: () => {
          opts.callback(null, { respond: (data) => (reply = decodeJson(data)) });
          return reply;
        },
      };
      return { unsubscribe: () => void calls.push("unsubscribe presence") };
    },
  } as unknown as NatsConnection;
  const worker: JobWorker = { stop: async () => void calls.push("stop worker"), inFlight: () => 0, backlog: async () => 17 };
  const cancellations: Cancellations = { isCancelled: () => false, signalFor: () => new AbortController().signal, close: () => void calls.push("stop watching cancellations") };
  let connectedWith: NatsOptions | null = null;
  let workerOptions: JobWorkerOptions<z.infer<typeof TestJob>, { ok: boolean }> | null = null;
  let health: { port: number; host: string; checks: HealthChecks } | null = null;
  let shutdown: Array<{ name: string; run: () => Promise<unknown> }> = [];
  const io: WorkerServiceIo = {
    env: { LOG_LEVEL: "silent", ...env },
    connectToNats: async (options) => {
      calls.push("connect");
      connectedWith = options;
      return nc;
    },
    watchCancellations: (_nc, topo) => {
      calls.push(`watch cancellations on ${topo.cancelAll}`);
      return cancellations;
    },
    startJobWorker: (async (options: JobWorkerOptions<z.infer<typeof TestJob>, { ok: boolean }>) => {
      calls.push("start worker");
      workerOptions = options;
      return worker;
    }) as WorkerServiceIo["startJobWorker"],
    serveHealth: (port, host, checks) => {
      calls.push("serve health");
      health = { port, host, checks };
      return { close: (done: () => void) => (calls.push("close health server"), done()) } as unknown as Server;
    },
    onShutdown: (_logger, steps) => {
      calls.push("on shutdown");
      shutdown = steps;
    },
  };
  return {
    io,
    calls,
    get connectedWith() {
      return connectedWith;
    },
    get workerOptions() {
      return workerOptions;
    },
    get health() {
      return health!;
    },
    get presence() {
      return presence;
    },
    get shutdown() {
      return shutdown;
    },
    closeNats: () => (closed = true),
  };
}

const handle = async () => ({ ok: true });

describe("runWorkerService", () => {
  it("on a signal stops the service's own steps first, then presence, the worker, NATS and the health server, in that order", async () => {
    const fake = fakeProcess({ HEALTH_PORT: "9100" });
    await runWorkerService(
      {
        name: "voter-like",
        env: TestEnv,
        start: ({ config }) =>
          workerPlan({
            job: { kind: "vote", schema: TestJob, concurrency: config.TEST_CONCURRENCY, ackWaitMs: 1000, maxDeliver: 2, handle, exhaustedError: "gave up" },
            backlogHelp: "Votes waiting.",
            presence: () => ({ model: "sim:sim-voter" }),
            stopFirst: [{ name: "stop the model check", run: async () => void fake.calls.push("stop the model check") }],
          }),
      },
      fake.io,
    );
    expect(fake.calls).toEqual(["connect", "watch cancellations on cancel.*", "start worker", "answer presence on svc.voter-like.presence", "flush NATS", "serve health", "on shutdown"]);
    expect(fake.shutdown.map((s) => s.name)).toEqual([
      "stop the model check",
      "stop answering presence",
      "stop taking jobs and finish those in hand",
      "stop watching cancellations",
      "drain NATS",
      "close health server",
    ]);

    fake.calls.length = 0;
    for (const step of fake.shutdown) await step.run();
    expect(fake.calls).toEqual(["stop the model check", "unsubscribe presence", "stop worker", "stop watching cancellations", "drain NATS", "close health server"]);
  });

  it("without presence neither answers it nor stops it, and flushes nothing", async () => {
    const fake = fakeProcess();
    await runWorkerService(
      {
        name: "scorer-like",
        env: TestEnv,
        start: () => workerPlan({ job: { kind: "score", schema: TestJob, concurrency: 1, ackWaitMs: 1000, maxDeliver: 3, handle, exhaustedError: "gave up" }, backlogHelp: "Jobs waiting." }),
      },
      fake.io,
    );
    expect(fake.calls).toEqual(["connect", "watch cancellations on cancel.*", "start worker", "serve health", "on shutdown"]);
    expect(fake.shutdown.map((s) => s.name)).toEqual(["stop taking jobs and finish those in hand", "stop watching cancellations", "drain NATS", "close health server"]);
  });

  it("connects and starts the worker with the common settings: address, credentials, namespace, consumer name, stream replicas", async () => {
    const env = { NATS_URL: "tls://nats:4222", NATS_USER: "scorer", NATS_PASSWORD: "pw", NATS_TLS_CA: "/ca.pem", ADRANK_NAMESPACE: "t1", JOBS_JETSTREAM_REPLICAS: "3", TEST_CONCURRENCY: "7" };
    const fake = fakeProcess(env);
    let seen: { settings: unknown; concurrency: number; namespace: string } | null = null;
    await runWorkerService(
      {
        name: "scorer-like",
        env: TestEnv,
        settings: (e) => ({ fromEnv: e.NATS_USER }),
        start: ({ config, settings, topo }) => {
          seen = { settings, concurrency: config.TEST_CONCURRENCY, namespace: topo.namespace };
          return workerPlan({ job: { kind: "score", schema: TestJob, concurrency: config.TEST_CONCURRENCY, ackWaitMs: 1000, maxDeliver: 3, handle, exhaustedError: "gave up" }, backlogHelp: "Jobs waiting." });
        },
      },
      fake.io,
    );
    expect(seen).toEqual({ settings: { fromEnv: "scorer" }, concurrency: 7, namespace: "t1" });
    expect(fake.connectedWith).toMatchObject({ url: "tls://nats:4222", name: "scorer-like", credentials: { NATS_USER: "scorer", NATS_PASSWORD: "pw", NATS_TLS_CA: "/ca.pem", NATS_TLS_CERT: "", NATS_TLS_KEY: "" } });
    expect(fake.workerOptions).toMatchObject({ kind: "score", service: "scorer-like", concurrency: 7, ackWaitMs: 1000, maxDeliver: 3, streamReplicas: 3, exhaustedError: "gave up" });
    expect(fake.workerOptions!.topo.jobs.score).toBe("t1.jobs.score");
    expect(fake.health.port).toBe(0);
    expect(fake.health.host).toBe("0.0.0.0");
  });

  it("answers presence in a queue group with its name, this worker and the service's fields", async () => {
    const fake = fakeProcess();
    let model = "sim:a";
    await runWorkerService(
      {
        name: "panel-voter",
        env: TestEnv,
        start: () =>
          workerPlan({
            job: { kind: "vote", schema: TestJob, concurrency: 1, ackWaitMs: 1000, maxDeliver: 2, handle, exhaustedError: "gave up" },
            backlogHelp: "Votes waiting.",
            presence: () => ({ model, simulated: true }),
          }),
      },
      fake.io,
    );
    expect(fake.presence).toMatchObject({ subject: "svc.panel-voter.presence", queue: "svc.panel-voter.presence" });
    expect(fake.presence!.answer()).toEqual({ service: "panel-voter", worker: WORKER_ID, model: "sim:a", simulated: true });
    model = "sim:b";
    expect(fake.presence!.answer()).toEqual({ service: "panel-voter", worker: WORKER_ID, model: "sim:b", simulated: true });
  });

  it("is ready while NATS is connected and the service says so; serves the backlog gauge on /metrics", async () => {
    const fake = fakeProcess();
    let modelsReason: string | null = "the start-up model check has not finished";
    await runWorkerService(
      {
        name: "scorer-like",
        env: TestEnv,
        start: () =>
          workerPlan({
            job: { kind: "score", schema: TestJob, concurrency: 1, ackWaitMs: 1000, maxDeliver: 3, handle, exhaustedError: "gave up" },
            backlogHelp: "Jobs waiting on this service's consumer.",
            notReadyReason: () => modelsReason,
          }),
      },
      fake.io,
    );
    const { checks } = fake.health;
    expect(checks.notReadyReason()).toBe("the start-up model check has not finished");
    modelsReason = null;
    expect(checks.notReadyReason()).toBeNull();
    fake.closeNats();
    expect(checks.notReadyReason()).toBe("NATS connection closed");

    const [type, body] = await checks.routes!["/metrics"]!();
    expect(type).toMatch(/^text\/plain/);
    expect(body).toContain("# HELP adrank_jobs_backlog Jobs waiting on this service's consumer.");
    expect(body).toContain('adrank_jobs_backlog{service="scorer-like"} 17');
  });

  it("gives every service's worker the process's cancellations, and counts the jobs it drops by phase on /metrics", async () => {
    const fake = fakeProcess();
    await runWorkerService(
      {
        name: "scorer-like",
        env: TestEnv,
        start: () => workerPlan({ job: { kind: "score", schema: TestJob, concurrency: 1, ackWaitMs: 1000, maxDeliver: 3, handle, exhaustedError: "gave up" }, backlogHelp: "Jobs waiting." }),
      },
      fake.io,
    );
    const options = fake.workerOptions!;
    expect(options.cancellations).toBeDefined();
    const job = { requestId: "r1", jobId: "j1", deadline: 0 };
    options.onCancelled!(job, "queued");
    options.onCancelled!(job, "queued");
    options.onCancelled!(job, "running");
    const [, body] = await fake.health.checks.routes!["/metrics"]!();
    expect(body).toContain('adrank_jobs_cancelled_total{phase="queued",service="scorer-like"} 2');
    expect(body).toContain('adrank_jobs_cancelled_total{phase="running",service="scorer-like"} 1');
  });

  it("reads the common variables after WorkerEnv's and the service's own, so a bad setting's lines keep their order", () => {
    expect(Object.keys(TestEnv.shape).slice(-2)).toEqual(["TEST_CONCURRENCY", "JOBS_JETSTREAM_REPLICAS"]);
    expect(TestEnv.parse({}).JOBS_JETSTREAM_REPLICAS).toBe(1);
    expect(TestEnv.safeParse({ JOBS_JETSTREAM_REPLICAS: "6" }).success).toBe(false);
  });
});
