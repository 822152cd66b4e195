// Throughput and profile of single-asset rank requests on the whole stack (real gateway,
// ledger, scorer, panel-voter and refinement processes; NATS and PostgreSQL on loopback),
// with the instant sim model. 127.0.0.1 only.
//
//   node test/bench/rank-throughput.bench.ts [--quick] [--requests=6000] [--concurrency=32]
//        [--scorers=1] [--gateways=1] [--scorer-concurrency=16]
//        [--cpu-prof=<dir>]   V8 CPU profiles of every service, summarized at the end
//        [--hops[=0.1]]       trace that share of requests and print where their time goes
//        [--scaling]          the same run with 1-3 scorers and 1-2 gateways, one table
//
// Prints requests/s, latency percentiles as the client sees them, and the CPU each process
// used per request (from /proc: services, NATS, PostgreSQL and this load client).
import { mkdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runClosedLoop } from "../support/load-client.ts";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlp-receiver.ts";
import { missingServices, REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { pidsNamed, startCpuWindow, type CpuGroup } from "../support/process-cpu.ts";
import { summarizeProfiles } from "../support/cpu-profile.ts";
import { hopTable, ledgerShare, rankHops, type HopTimes } from "../support/request-hops.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { summarize } from "../support/stats.ts";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean" },
    requests: { type: "string" },
    concurrency: { type: "string" },
    scorers: { type: "string" },
    gateways: { type: "string" },
    "scorer-concurrency": { type: "string" },
    "cpu-prof": { type: "string" },
    hops: { type: "string" },
    scaling: { type: "boolean" },
  },
});
// `--hops` alone traces a tenth of the requests.
const hopsArg = process.argv.includes("--hops") ? (args.hops ?? "0.1") : args.hops;
const quick = args.quick === true;
const total = Number(args.requests ?? (quick ? 1_500 : 6_000));
const concurrency = Number(args.concurrency ?? 32);
const scorerConcurrency = args["scorer-concurrency"] ?? "16";
const WARM_UP = 300;
// 60 scoring units a minute per key: a key never takes more than this many requests of a run.
const REQUESTS_PER_KEY = 50;
const audience = { name: "Bench shoppers", demographics: { shoppingIntent: "comparing" } };

const missing = missingServices(["gateway", "ledger", "scorer"]);
if (missing.length > 0) {
  console.error(`rank-throughput.bench: cannot run, missing ${missing.join(", ")}`);
  process.exit(2);
}

interface RunConfig {
  scorers: number;
  gateways: number;
  profileDir?: string;
  traceRatio?: number;
}

interface RunResult {
  config: RunConfig;
  perSecond: number;
  latency: ReturnType<typeof summarize>;
  statuses: string;
  failures: number;
  cpu: Array<{ name: string; cpuMs: number }>;
  elapsedMs: number;
  hops: HopTimes[];
  ledger: Array<{ reserve: number; settle: number }>;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const serviceOf = (processName: string) => processName.split("#")[0]!;

async function run(config: RunConfig): Promise<RunResult> {
  let receiver: OtlpReceiver | null = null;
  const env: Record<string, string> = {};
  if (config.profileDir) {
    mkdirSync(config.profileDir, { recursive: true });
    env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${config.profileDir}`;
  }
  if (config.traceRatio !== undefined) {
    receiver = await startOtlpReceiver();
    Object.assign(env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_BSP_MAX_QUEUE_SIZE: "65536",
      OTEL_METRICS_EXPORTER: "none",
      OTEL_LOGS_EXPORTER: "none",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: String(config.traceRatio),
    });
  }
  const stack: Stack = await startStack({ logLevel: "warn", env, scorerEnv: { SCORER_CONCURRENCY: scorerConcurrency } });
  try {
    const baseUrls = [stack.baseUrl];
    for (let i = 1; i < config.gateways; i++) baseUrls.push((await stack.startReplica("gateway")).baseUrl);
    for (let i = 1; i < config.scorers; i++) await stack.startReplica("scorer");

    const keys = await Promise.all(Array.from({ length: Math.ceil((total + WARM_UP) / REQUESTS_PER_KEY) }, () => stack.createAccountDirect({ credits: REQUESTS_PER_KEY + 10 })));
    // 64 distinct creatives: the image caches see what a customer ranking a campaign's images would.
    const bodies = Array.from({ length: 64 }, (_, i) => Buffer.from(JSON.stringify({ assets: [{ url: creative(5_000 + i) }], audience, refine_close_pairs: false })));
    const requestAt = (offset: number) => (i: number) => ({ path: "/api/v1/rank", key: keys[Math.floor((offset + i) / REQUESTS_PER_KEY)]!.key, body: bodies[(offset + i) % bodies.length]! });
    // Warm-up: connections, JIT, caches; not measured.
    await runClosedLoop({ baseUrls, concurrency, total: WARM_UP, maxMs: 60_000, requestAt: requestAt(0) });
    await new Promise((r) => setTimeout(r, 500));
    const spansBefore = receiver?.spans.length ?? 0;

    const groups: CpuGroup[] = [...new Set(stack.processes.map((p) => serviceOf(p.name)))].map((name) => ({
      name,
      pids: () => stack.processes.filter((p) => serviceOf(p.name) === name && p.isRunning() && p.child.pid !== undefined).map((p) => p.child.pid!),
    }));
    groups.push({ name: "NATS server", pids: () => pidsNamed("nats-server") }, { name: "PostgreSQL", pids: () => pidsNamed("postgres") });
    const window = startCpuWindow(groups);
    const result = await runClosedLoop({ baseUrls, concurrency, total, maxMs: 300_000, requestAt: requestAt(WARM_UP) });
    const cpu = window.stop();

    const hops: HopTimes[] = [];
    const ledger: Array<{ reserve: number; settle: number }> = [];
    if (receiver) {
      await new Promise((r) => setTimeout(r, 1_500)); // the last span batches
      const byTrace = new Map<string, typeof receiver.spans>();
      for (const s of receiver.spans.slice(spansBefore)) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
      for (const spans of byTrace.values()) {
        const h = rankHops(spans);
        const l = ledgerShare(spans);
        if (h) hops.push(h);
        if (l) ledger.push(l);
      }
    }
    return {
      config,
      perSecond: (result.latencies.length / result.elapsedMs) * 1_000,
      latency: summarize(result.latencies),
      statuses: [...result.statuses].map(([s, n]) => `${s}: ${n}`).join(", "),
      failures: result.failures,
      cpu,
      elapsedMs: result.elapsedMs,
      hops,
      ledger,
    };
  } finally {
    await stack.stop();
    await receiver?.close();
  }
}

function report(r: RunResult): void {
  const { config, latency } = r;
  const done = latency.count;
  console.log(`\n${config.gateways} gateway(s), ${config.scorers} scorer(s) (SCORER_CONCURRENCY ${scorerConcurrency}), ${concurrency} concurrent, ${done} requests in ${fmt(r.elapsedMs / 1000)} s`);
  console.log(`  throughput ${fmt(r.perSecond)} req/s; latency p50 ${fmt(latency.p50)} ms, p90 ${fmt(latency.p90)} ms, p99 ${fmt(latency.p99)} ms, max ${fmt(latency.max)} ms`);
  console.log(`  statuses ${r.statuses}${r.failures ? `; ${r.failures} without an answer` : ""}`);
  console.log("  | process | CPU ms per request | share of 2 cores |");
  console.log("  | --- | ---: | ---: |");
  const coresMs = r.elapsedMs * cpus().length;
  let sum = 0;
  for (const { name, cpuMs } of r.cpu) {
    sum += cpuMs;
    console.log(`  | ${name} | ${fmt(cpuMs / done, 2)} | ${fmt((100 * cpuMs) / coresMs)} % |`);
  }
  console.log(`  | all of the above | ${fmt(sum / done, 2)} | ${fmt((100 * sum) / coresMs)} % |`);
  if (r.hops.length > 0) {
    const { rows, total: t } = hopTable(r.hops);
    console.log(`\n  where the time of a request goes: ${r.hops.length} traced requests (${config.traceRatio} of them sampled), ms`);
    console.log("  | hop | mean | p50 | p99 | share of the mean |");
    console.log("  | --- | ---: | ---: | ---: | ---: |");
    for (const row of rows) console.log(`  | ${row.what} | ${fmt(row.mean, 2)} | ${fmt(row.p50, 2)} | ${fmt(row.p99, 2)} | ${fmt(100 * row.share)} % |`);
    console.log(`  | **${t.what}** | ${fmt(t.mean, 2)} | ${fmt(t.p50, 2)} | ${fmt(t.p99, 2)} | |`);
    if (r.ledger.length > 0) {
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      console.log(`  the ledger's own part (its server span): reserve ${fmt(mean(r.ledger.map((l) => l.reserve)), 2)} ms, settle ${fmt(mean(r.ledger.map((l) => l.settle)), 2)} ms on average`);
    }
  }
}

function reportProfiles(dir: string, requests: number): void {
  for (const p of summarizeProfiles(dir, REPO_ROOT)) {
    const name = p.main.split("/")[1] ?? p.main;
    console.log(`\nCPU profile of ${name} (${p.main}): busy ${fmt(p.busyMs / 1000)} s of ${fmt(p.wallMs / 1000)} s, start-up and warm-up included; ms per measured request:`);
    for (const [component, ms] of p.components.slice(0, 12)) console.log(`  ${fmt(ms / requests, 3).padStart(7)}  ${component}`);
    console.log("  top functions:");
    for (const [fn, ms] of p.functions.slice(0, 10)) console.log(`  ${fmt(ms / requests, 3).padStart(7)}  ${fn}`);
  }
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`machine: ${cpus().length} cores, load average ${load()} at start; ${total} measured requests after ${WARM_UP} of warm-up`);
if (args.scaling) {
  const results: RunResult[] = [];
  for (const gateways of [1, 2]) for (const scorers of [1, 2, 3]) results.push(await run({ gateways, scorers }));
  for (const r of results) report(r);
  console.log("\n| gateways | scorers | req/s | p50 ms | p99 ms | busiest process (CPU share of 2 cores) |");
  console.log("| ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of results) {
    const coresMs = r.elapsedMs * cpus().length;
    const busiest = [...r.cpu].sort((a, b) => b.cpuMs - a.cpuMs)[0]!;
    console.log(`| ${r.config.gateways} | ${r.config.scorers} | ${fmt(r.perSecond)} | ${fmt(r.latency.p50)} | ${fmt(r.latency.p99)} | ${busiest.name} ${fmt((100 * busiest.cpuMs) / coresMs)} % |`);
  }
} else {
  const config: RunConfig = { scorers: Number(args.scorers ?? 1), gateways: Number(args.gateways ?? 1) };
  // A folder per run: the summary reads every profile in it.
  if (args["cpu-prof"]) config.profileDir = join(args["cpu-prof"], new Date().toISOString().replace(/[:.]/g, "-"));
  if (hopsArg !== undefined) config.traceRatio = Number(hopsArg);
  const result = await run(config);
  report(result);
  if (config.profileDir) reportProfiles(config.profileDir, total + WARM_UP);
}
console.log(`\nload average ${load()} at the end`);
