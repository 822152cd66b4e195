// Durable requests benchmark of the whole stack (real gateway, ledger and scorer; 127.0.0.1 only):
//   node test/bench/durable.bench.ts [--quick]
// 1. What an Idempotency-Key adds to a normal request: single-asset ranks with the instant sim
//    model, one at a time, alternating a request without a key and one with a fresh key
//    (which writes the running row, holds a lease and stores the answer): p50 and p99 of each
//    and their difference.
// 2. What a replay costs: the same key sent again (the stored answer read and sent back),
//    for a 1-asset answer and a 20-asset answer; and GET /api/v1/requests/{id} of the same.
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { call } from "../support/http.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";
import { summarize } from "../support/stats.ts";

const quick = process.argv.includes("--quick");
const audience = { name: "Bench shoppers" };
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function timed(stack: Stack, method: string, path: string, account: Account, json?: unknown, headers: Record<string, string> = {}): Promise<{ ms: number; replayed: boolean; body: { request_id?: string } }> {
  const res = await call(stack.baseUrl, method, path, { key: account.key, ...(json === undefined ? {} : { json }), headers });
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}\n${stack.output().slice(-3000)}`);
  return { ms: res.ms, replayed: res.headers.get("idempotent-replayed") === "true", body: res.body };
}

const line = (label: string, xs: number[]) => {
  const s = summarize(xs);
  console.log(`  ${label.padEnd(34)} n=${s.count} p50 ${fmt(s.p50)}  p99 ${fmt(s.p99)}  max ${fmt(s.max)}`);
  return s;
};

async function main(): Promise<void> {
  const stack = await startStack({ logLevel: "warn", scorerEnv: { SIM_LATENCY_MS: "0" } });
  try {
    const pairs = quick ? 60 : 400;
    const replays = quick ? 100 : 1_000;
    // 60 scoring evaluations a minute per key: a fresh account every 25 pairs (50 evaluations).
    const accounts: Account[] = [];
    const accountFor = async (i: number) => (accounts[Math.floor(i / 25)] ??= await stack.createAccountDirect({ credits: 10_000 }));
    const one = (i: number) => ({ assets: [{ url: creative(i % 50) }], audience, refine_close_pairs: false });

    // Warm-up: connections, caches, the JIT.
    for (let i = 0; i < 20; i++) await timed(stack, "POST", "/api/v1/rank", await accountFor(i), one(i), i % 2 ? { "Idempotency-Key": randomUUID() } : {});
    accounts.length = 0;

    const plain: number[] = [];
    const keyed: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const account = await accountFor(i);
      plain.push((await timed(stack, "POST", "/api/v1/rank", account, one(i))).ms);
      keyed.push((await timed(stack, "POST", "/api/v1/rank", account, one(i), { "Idempotency-Key": randomUUID() })).ms);
    }
    console.log(`durable requests benchmark: ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}, sim instant, one request at a time`);
    console.log("1. what an Idempotency-Key adds to a single-asset rank:");
    const p = line("without a key (answer stored)", plain);
    const k = line("with a fresh Idempotency-Key", keyed);
    console.log(`  key check adds: p50 ${fmt(k.p50 - p.p50)}, p99 ${fmt(k.p99 - p.p99)} (ratio p50 ${(k.p50 / p.p50).toFixed(2)}, p99 ${(k.p99 / p.p99).toFixed(2)})`);

    console.log("2. replays and fetches of a stored answer:");
    for (const n of [1, 20]) {
      const account = await stack.createAccountDirect({ credits: 1_000 });
      const key = randomUUID();
      const body = { assets: Array.from({ length: n }, (_, i) => ({ url: creative(500 + i) })), audience, refine_close_pairs: false };
      const first = await timed(stack, "POST", "/api/v1/rank", account, body, { "Idempotency-Key": key });
      const replayMs: number[] = [];
      const getMs: number[] = [];
      for (let i = 0; i < replays; i++) {
        const r = await timed(stack, "POST", "/api/v1/rank", account, body, { "Idempotency-Key": key });
        if (!r.replayed) throw new Error("a repeat with the same key was not a replay");
        replayMs.push(r.ms);
        getMs.push((await timed(stack, "GET", `/api/v1/requests/${first.body.request_id}`, account)).ms);
      }
      line(`replay of a ${n}-asset answer`, replayMs);
      line(`GET of a ${n}-asset answer`, getMs);
      console.log(`  (the first ${n}-asset request itself: ${fmt(first.ms)}; replay p50 is ${(first.ms / summarize(replayMs).p50).toFixed(0)}x faster)`);
    }
    console.log("(latencies measured by the client on 127.0.0.1, HTTP included)");
  } finally {
    await stack.stop();
  }
}

await main();
