// Job worker micro-benchmark on the local NATS, in a private namespace (deleted afterwards):
//   node packages/messaging/bench/job-worker.bench.ts [--jobs=4000] [--concurrency=16] [--clients=32]
// The handler is instant, so every figure is the worker's own transport cost.
// (1) drain: N jobs already queued, one worker started; jobs per second until all are answered.
// (2) closed loop: `clients` callers each publish a job and wait for its result, N jobs in all
//     (the shape of the rank path); jobs per second and latency from publish to result.
// For each phase it counts the worker connection's subscriptions, flushes and socket writes per job, and the
// CPU time per job of this process (callers and worker) and of the NATS server if it runs here.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { z } from "zod";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connectToNats, encodeJson, startJobWorker, topology, type NatsConnection } from "../src/index.ts";

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const N = arg("jobs", 4_000);
const CONCURRENCY = arg("concurrency", 16);
const CLIENTS = arg("clients", 32);
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

const Job = z.object({ requestId: z.string(), jobId: z.string(), deadline: z.number() });
const silent = { info() {}, warn() {}, error() {} };
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** Counts what the worker's connection does: subscriptions opened, flushes (PING/PONG) and socket writes. */
function countCalls(nc: NatsConnection) {
  const counts = { subs: 0, flushes: 0, writes: 0 };
  const subscribe = nc.subscribe.bind(nc);
  const flush = nc.flush.bind(nc);
  nc.subscribe = (...a: Parameters<typeof subscribe>) => (counts.subs++, subscribe(...a));
  nc.flush = () => (counts.flushes++, flush());
  // nats.js internals: every write of the connection to its socket goes through transport.send.
  const transport = (nc as unknown as { protocol: { transport: { send(data: Uint8Array): void } } }).protocol.transport;
  const send = transport.send.bind(transport);
  transport.send = (data) => (counts.writes++, send(data));
  return counts;
}

const isNatsServer = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "nats-server";
  } catch {
    return false;
  }
};
const natsServerPid = readdirSync("/proc").find((p) => /^\d+$/.test(p) && isNatsServer(p));
/** CPU ms of the local nats-server so far (utime + stime from /proc, 100 ticks a second), undefined when it runs elsewhere. */
const natsServerCpuMs = () => {
  if (!natsServerPid) return undefined;
  const fields = readFileSync(`/proc/${natsServerPid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const cpuNow = () => {
  const own = process.cpuUsage();
  return { ...counts, ownMs: (own.user + own.system) / 1000, natsMs: natsServerCpuMs() };
};

const topo = topology(`bench${randomUUID().slice(0, 6)}`);
const client = await connectToNats({ url: NATS_URL, name: "job-worker-bench-client" });
const workerNc = await connectToNats({ url: NATS_URL, name: "job-worker-bench-worker" });
const counts = countCalls(workerNc);
const js = jetstream(client);
const requestId = randomUUID();
const sent = new Map<string, number>();
const waiters = new Map<string, () => void>();
const latencies: number[] = [];
const results = client.subscribe(topo.resultsWildcard(requestId), {
  callback: (_err, m) => {
    const jobId = m.subject.slice(m.subject.lastIndexOf(".") + 1);
    latencies.push(performance.now() - sent.get(jobId)!);
    waiters.get(jobId)?.();
  },
});
await client.flush();
const publish = async (jobId: string) => {
  sent.set(jobId, performance.now());
  await js.publish(topo.jobs.score, encodeJson({ requestId, jobId, deadline: Date.now() + 120_000 }), { msgID: jobId });
};
const answered = (jobId: string) => new Promise<void>((resolve) => waiters.set(jobId, resolve));
const report = (phase: string, ms: number, before: ReturnType<typeof cpuNow>) => {
  const after = cpuNow();
  const nats = after.natsMs !== undefined && before.natsMs !== undefined ? `, nats-server ${(((after.natsMs - before.natsMs) / N) * 1000).toFixed(0)} µs` : "";
  const latency = latencies.length > 0 ? `publish→result p50 ${pct(latencies, 50).toFixed(2)} ms, p99 ${pct(latencies, 99).toFixed(2)} ms; ` : "";
  console.log(
    `${phase}: ${N} jobs in ${ms.toFixed(0)} ms = ${((N / ms) * 1000).toFixed(0)} jobs/s; ${latency}` +
      `per job ${((after.subs - before.subs) / N).toFixed(2)} subscriptions, ${((after.flushes - before.flushes) / N).toFixed(2)} flushes, ${((after.writes - before.writes) / N).toFixed(2)} writes; CPU: this process ${(((after.ownMs - before.ownMs) / N) * 1000).toFixed(0)} µs${nats}`,
  );
};

try {
  // The consumer must exist before the backlog is queued: start and stop a worker once.
  const workerOpts = { nc: workerNc, topo, kind: "score" as const, service: "bench", schema: Job, concurrency: CONCURRENCY, ackWaitMs: 30_000, maxDeliver: 3, logger: silent, exhaustedError: "failed", handle: async () => ({ ok: true }) };
  await (await startJobWorker(workerOpts)).stop();

  // (1) drain a queued backlog
  await Promise.all(Array.from({ length: N }, (_, i) => publish(`d${i}`)));
  const allDrained = Promise.all(Array.from({ length: N }, (_, i) => answered(`d${i}`)));
  let before = cpuNow();
  let t0 = performance.now();
  const worker = await startJobWorker(workerOpts);
  await allDrained;
  latencies.length = 0; // time spent queued, not the worker's latency
  console.log(`concurrency ${CONCURRENCY}, instant handler`);
  report("drain     ", performance.now() - t0, before);

  // (2) closed loop of callers
  before = cpuNow();
  let next = 0;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < N) {
        const jobId = `c${next++}`;
        const done = answered(jobId);
        await publish(jobId);
        await done;
      }
    }),
  );
  report(`${CLIENTS} callers`, performance.now() - t0, before);
  await worker.stop();
} finally {
  results.unsubscribe();
  await (await jetstreamManager(client)).streams.delete(topo.streams.jobs.name).catch(() => {});
  await workerNc.close();
  await client.close();
}
