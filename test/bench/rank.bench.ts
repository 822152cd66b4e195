// Rank benchmark of the whole stack (real gateway, ledger and scorer processes; 127.0.0.1 only):
//   node test/bench/rank.bench.ts [--quick] [--latency=<ms>]
// 1. Critical path: with the scorer's fixed-latency fake generator, a 20-asset request with
//    copy_context on every asset (40 evaluations, 4 assets in flight, each asset's two
//    evaluations at once) should take at most 1.10 x 5 waves of one evaluation, where one
//    evaluation's latency is a 1-asset request measured in the same run.
// 2. Throughput of single-asset requests with the instant sim model, many keys so the
//    per-key limit (60 evaluations a minute) never binds: p50, p99, requests per second.
import { cpus, loadavg } from "node:os";
import { call, rank } from "../support/http.ts";
import { missingServices } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";
import { median, percentile } from "../support/stats.ts";

const quick = process.argv.includes("--quick");
const LATENCY_MS = Number(process.argv.find((a) => a.startsWith("--latency="))?.slice("--latency=".length) ?? 200);
const TARGET_RATIO = 1.1;
const audience = { name: "Bench shoppers", demographics: { shoppingIntent: "comparing" } };

const missing = missingServices(["gateway", "ledger", "scorer"]);
if (missing.length > 0) {
  console.error(`rank.bench: cannot run, missing ${missing.join(", ")}`);
  process.exit(2);
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function timedRank(stack: Stack, account: Account, body: unknown): Promise<number> {
  const res = await rank(stack.baseUrl, account.key, body);
  if (res.status !== 200) throw new Error(`rank answered ${res.status}: ${JSON.stringify(res.body)}\n${stack.output().slice(-4000)}`);
  if (res.body.errors.length > 0) throw new Error(`per-asset errors: ${JSON.stringify(res.body.errors)}`);
  return res.ms;
}

async function criticalPath(): Promise<boolean> {
  const stack = await startStack({
    logLevel: "warn",
    // 8 evaluations at once: 4 assets x (full ad package + ablation).
    scorerEnv: { SIM_LATENCY_MS: String(LATENCY_MS), SCORER_CONCURRENCY: "8" },
  });
  try {
    const rounds = quick ? 3 : 7;
    const singles: number[] = [];
    const batches: number[] = [];
    // Warm-up: every scorer loop, the embedding cache, the connections.
    const warm = await stack.createAccountDirect({ credits: 1_000 });
    await timedRank(stack, warm, { assets: Array.from({ length: 8 }, (_, i) => ({ url: creative(900 + i), copy_context: { adBody: "warm-up" } })), audience, refine_close_pairs: false });
    for (let round = 0; round < rounds; round++) {
      // A fresh key per round: 40 evaluations a batch, 60 a minute per key.
      const account = await stack.createAccountDirect({ credits: 1_000 });
      singles.push(await timedRank(stack, account, { assets: [{ url: creative(round * 100) }], audience, refine_close_pairs: false }));
      const assets = Array.from({ length: 20 }, (_, i) => ({ url: creative(round * 100 + i + 1), copy_context: { adHeadline: `Offer ${i}`, adBody: "Free delivery this week." } }));
      batches.push(await timedRank(stack, account, { assets, audience, refine_close_pairs: false }));
    }
    const single = median(singles);
    const batch = median(batches);
    const critical = 5 * single;
    const ratio = batch / critical;
    console.log(`critical path (SIM_LATENCY_MS=${LATENCY_MS}, ${rounds} rounds, medians):`);
    console.log(`  single evaluation (1-asset request): ${fmt(single)}   [${singles.map(fmt).join(", ")}]`);
    console.log(`  20 assets with copy_context (40 evaluations): ${fmt(batch)}   [${batches.map(fmt).join(", ")}]`);
    console.log(`  critical path 5 x single: ${fmt(critical)}; ratio ${ratio.toFixed(3)} (target <= ${TARGET_RATIO})  ${ratio <= TARGET_RATIO ? "PASS" : "FAIL"}`);
    console.log(`  per-round ratios: ${batches.map((b, i) => (b / (5 * singles[i]!)).toFixed(3)).join(", ")}`);
    return ratio <= TARGET_RATIO;
  } finally {
    await stack.stop();
  }
}

async function throughput(): Promise<void> {
  const stack = await startStack({ logLevel: "warn", scorerEnv: { SCORER_CONCURRENCY: "16" } });
  try {
    const total = quick ? 300 : 1_500;
    const concurrency = quick ? 16 : 32;
    const maxMs = quick ? 60_000 : 180_000;
    // Each key takes at most 30 requests, well inside 60 evaluations a minute.
    const keys = await Promise.all(Array.from({ length: Math.ceil(total / 30) }, () => stack.createAccountDirect({ credits: 100 })));
    const images = Array.from({ length: 64 }, (_, i) => creative(5_000 + i));
    // Warm-up: connections, JIT, caches.
    for (let i = 0; i < 10; i++) await rank(stack.baseUrl, keys[i % keys.length]!.key, { assets: [{ url: images[i]! }], audience, refine_close_pairs: false });

    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < total && performance.now() - started < maxMs) {
        const i = next++;
        const res = await rank(stack.baseUrl, keys[i % keys.length]!.key, { assets: [{ url: images[i % images.length]! }], audience, refine_close_pairs: false });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        latencies.push(res.ms);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = performance.now() - started;
    latencies.sort((a, b) => a - b);
    console.log(`throughput (instant sim, single-asset requests, ${concurrency} concurrent, ${keys.length} keys):`);
    console.log(`  requests ${latencies.length} in ${(elapsed / 1000).toFixed(1)} s: ${((latencies.length / elapsed) * 1000).toFixed(1)} req/s`);
    console.log(`  latency p50 ${fmt(percentile(latencies, 50))}, p90 ${fmt(percentile(latencies, 90))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(latencies.at(-1) ?? 0)}`);
    console.log(`  statuses ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}`);
    const ready = await call(stack.baseUrl, "GET", "/readyz");
    if (ready.status !== 200) console.log(`  readyz after the run: ${ready.status} ${JSON.stringify(ready.body)}`);
  } finally {
    await stack.stop();
  }
}

// The machine is shared: say how busy it was, since both figures depend on it.
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`machine: ${cpus().length} cores, load average ${load()} at start`);
const passed = await criticalPath();
await throughput();
console.log(`load average ${load()} at the end`);
process.exit(passed ? 0 : 1);
