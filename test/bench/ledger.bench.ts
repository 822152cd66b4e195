// Ledger benchmark: reserve+settle round trips measured from the client, against the real
// NATS and PostgreSQL, in a private namespace and schema that are removed afterwards.
//
//   node test/bench/ledger.bench.ts [--quick] [--concurrency 16] [--in-process] [--projection inline|separate]
//
// By default the ledger runs as a separate process (`services/ledger/src/main.ts`, one
// replica, projection and sweeper on), so that the client's own work does not share its
// event loop; --in-process starts it with startLedger in this process instead.
// --projection separate runs the Postgres projection in a second ledger process
// (LEDGER_RPC=false) and the commands in one without it (LEDGER_PROJECTION=false), as a
// deployment may; the default runs both in one.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createTestDatabase } from "@adrank/db/testing";
import { createLedgerClient, isLedgerUnavailable, type LedgerClient } from "@adrank/ledger-client";
import { connectToNats, topology, type NatsConnection } from "@adrank/messaging";
import { PROJECTION_CONSUMER, silentLogger, startLedger, type Ledger } from "@adrank/ledger-service";
import { pidsNamed, startCpuWindow, type CpuUse } from "../support/process-cpu.ts";
import { summarize } from "../support/stats.ts";

const { values: args } = parseArgs({ options: { quick: { type: "boolean" }, concurrency: { type: "string" }, "in-process": { type: "boolean" }, projection: { type: "string" } } });
const projection = args.projection ?? "inline";
if (projection !== "inline" && projection !== "separate") throw new Error(`--projection is inline or separate, not ${projection}`);
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const quick = args.quick === true;
const concurrency = Number(args.concurrency ?? 16);
const scenarioCapMs = quick ? 5_000 : 15_000;
const MAIN = fileURLToPath(new URL("../../services/ledger/src/main.ts", import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
  name: string;
  pairs: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  refused: number;
}

/** Throughput and nearest-rank percentiles (test/support/stats.ts, as every bench reports them). */
function figures(name: string, latencies: number[], seconds: number, refused: number): Figures {
  const { count, p50, p90, p99, max } = summarize(latencies);
  return { name, pairs: count, seconds, perSecond: count / seconds, p50, p90, p99, max, refused };
}

/** `concurrency` closed loops, each doing reserve then settle, until `pairs` are done or the cap passes. */
async function run(name: string, ledger: LedgerClient, pairs: number, pick: (i: number) => { accountId: string; keyId: string }): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  let refused = 0;
  const started = performance.now();
  const deadline = started + scenarioCapMs;
  const loop = async () => {
    while (next < pairs && performance.now() < deadline) {
      const i = next++;
      const { accountId, keyId } = pick(i);
      const reservationId = randomUUID();
      const t0 = performance.now();
      const r = await ledger.reserve({ accountId, keyId, reservationId, kind: "scoring", units: 2 });
      if (!r.ok) {
        refused++;
        continue;
      }
      const s = await ledger.settle({ accountId, reservationId, unitsUsed: 1 });
      if (!s.ok) throw new Error(`settle refused: ${JSON.stringify(s.rejection)}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - started) / 1_000;
  return figures(name, latencies, seconds, refused);
}

/**
 * The transport floor of one pair, measured now on the same machine: the hops a
 * reserve+settle makes (two request-replies, two JetStream appends) without any ledger work.
 * The echo responder lives in its own connection of this process.
 */
async function floor(client: NatsConnection, namespace: string, samples: number): Promise<Figures> {
  const responder = await connectToNats({ url: NATS_URL, name: "ledger-bench-echo" });
  const subject = `${namespace}.bench.echo`;
  responder.subscribe(subject, {
    callback: (_err, m) => {
      m.respond(m.data);
    },
  });
  await responder.flush();
  const jsm = await jetstreamManager(client);
  const stream = `${namespace}_BENCHFLOOR`;
  await jsm.streams.add({ name: stream, subjects: [`${namespace}.benchfloor`] });
  const js = jetstream(client);
  const body = new TextEncoder().encode(JSON.stringify({ accountId: "acct1", keyId: "k1", reservationId: randomUUID(), kind: "scoring", units: 2 }));
  const latencies: number[] = [];
  const started = performance.now();
  try {
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      await client.request(subject, body, { timeout: 5_000 });
      await js.publish(`${namespace}.benchfloor`, body, { expect: { lastSubjectSequence: 2 * i } });
      await client.request(subject, body, { timeout: 5_000 });
      await js.publish(`${namespace}.benchfloor`, body, { expect: { lastSubjectSequence: 2 * i + 1 } });
      latencies.push(performance.now() - t0);
    }
  } finally {
    await jsm.streams.delete(stream).catch(() => {});
    await responder.close();
  }
  const seconds = (performance.now() - started) / 1_000;
  return figures("transport floor", latencies, seconds, 0);
}

/** The account windows (units, requests, fetches) raised out of the way: the bench measures appends, and its hot account spreads over many keys. */
const BENCH_ACCOUNT_LIMIT = 1_000_000;

async function main(): Promise<void> {
  const topo = topology(`bench${randomBytes(4).toString("hex")}`);
  const tdb = await createTestDatabase("ledgerbench");
  const client: NatsConnection = await connectToNats({ url: NATS_URL, name: "ledger-bench" });
  const ledger = createLedgerClient(client, topo, { timeoutMs: 10_000 });
  let child: ChildProcess | null = null;
  let projector: ChildProcess | null = null;
  let inProcess: { ledger: Ledger; nc: NatsConnection } | null = null;
  try {
    if (args["in-process"]) {
      const nc = await connectToNats({ url: NATS_URL, name: "ledger-bench-replica" });
      const ledger = await startLedger({
        nc,
        db: tdb.db,
        topo,
        logger: silentLogger,
        accountRateLimits: { scoring: BENCH_ACCOUNT_LIMIT, pairwise: BENCH_ACCOUNT_LIMIT },
        accountRequestLimits: { requests: BENCH_ACCOUNT_LIMIT, fetches: BENCH_ACCOUNT_LIMIT },
      });
      inProcess = { nc, ledger };
    } else {
      const sep = tdb.connectionString.includes("?") ? "&" : "?";
      const start = (extra: Record<string, string>) =>
        spawn(process.execPath, [MAIN], {
          env: {
            ...process.env,
            NATS_URL,
            DATABASE_URL: `${tdb.connectionString}${sep}options=${encodeURIComponent(`-c search_path=${tdb.schema}`)}`,
            ADRANK_NAMESPACE: topo.namespace,
            LOG_LEVEL: "warn",
            LEDGER_ACCOUNT_RATE_LIMIT_SCORING: String(BENCH_ACCOUNT_LIMIT),
            LEDGER_ACCOUNT_REQUEST_LIMIT: String(BENCH_ACCOUNT_LIMIT),
            LEDGER_ACCOUNT_FETCH_LIMIT: String(BENCH_ACCOUNT_LIMIT),
            ...extra,
          },
          stdio: ["ignore", "inherit", "inherit"],
        });
      if (projection === "separate") {
        child = start({ LEDGER_PROJECTION: "false" });
        projector = start({ LEDGER_RPC: "false" });
      } else {
        child = start({});
      }
      for (let waited = 0; ; waited += 100) {
        try {
          if ((await ledger.balance({ accountId: "probe" })).ok) break;
        } catch (err) {
          if (!isLedgerUnavailable(err) || waited > 15_000) throw err;
        }
        await sleep(100);
      }
    }

    const hotPairs = quick ? 1_000 : 10_000;
    const spreadPairs = quick ? 2_000 : 20_000;
    const accounts = 1_000;
    // 60 scoring units per key per minute: enough keys that the window never refuses.
    const keysFor = (pairs: number) => Math.ceil((pairs * 2) / 50);

    await ledger.grant({ accountId: "hot", grantId: "g", credits: 10_000_000 });
    const ids = Array.from({ length: accounts }, (_, i) => `acct${i}`);
    for (let i = 0; i < ids.length; i += 50) {
      await Promise.all(ids.slice(i, i + 50).map((accountId) => ledger.grant({ accountId, grantId: "g", credits: 1_000_000 })));
    }
    // A short warm-up so that JIT and connection set-up are not measured.
    await run("warm-up", ledger, 300, (i) => ({ accountId: ids[i % accounts]!, keyId: `w${i}` }));

    const transport = await floor(client, topo.namespace, quick ? 500 : 2_000);
    const hotKeys = keysFor(hotPairs);
    const hot = await run("1 hot account", ledger, hotPairs, (i) => ({ accountId: "hot", keyId: `k${i % hotKeys}` }));
    const spreadKeys = keysFor(spreadPairs / accounts);
    const ledgerPids = () => [child, projector].flatMap((c) => (c?.pid !== undefined && c.exitCode === null ? [c.pid] : []));
    const cpuWindow = startCpuWindow([
      { name: "ledger (every process)", pids: ledgerPids },
      { name: "NATS server", pids: () => pidsNamed("nats-server") },
      { name: "PostgreSQL", pids: () => pidsNamed("postgres") },
    ]);
    const spread = await run(`${accounts} accounts`, ledger, spreadPairs, (i) => ({ accountId: ids[Math.floor(Math.random() * accounts)]!, keyId: `k${i % spreadKeys}` }));

    const cpu: CpuUse[] = cpuWindow.stop();
    const lagStarted = performance.now();
    const jsm = await jetstreamManager(client);
    let projectionCatchUpMs: number | null = null;
    for (;;) {
      const info = await jsm.consumers.info(topo.streams.ledger.name, topo.consumer(PROJECTION_CONSUMER)).catch(() => null);
      if (!info) break; // LEDGER_PROJECTION=false: no projection to wait for
      if (info.num_pending + info.num_ack_pending === 0) {
        projectionCatchUpMs = performance.now() - lagStarted;
        break;
      }
      await sleep(20);
    }

    const mode = args["in-process"] ? "ledger in-process" : projection === "separate" ? "ledger as a process, its projection in another" : "ledger as a separate process";
    console.log(`ledger bench (${quick ? "quick" : "full"}): one replica, ${mode}, ${concurrency} concurrent clients, reserve(2 units)+settle(1) per pair`);
    console.log("scenario        | pairs  |  pairs/s | p50 ms | p90 ms | p99 ms | max ms | refused");
    for (const f of [hot, spread, transport]) {
      console.log(
        `${f.name.padEnd(15)} | ${String(f.pairs).padStart(6)} | ${f.perSecond.toFixed(0).padStart(8)} | ${f.p50.toFixed(2).padStart(6)} | ${f.p90.toFixed(2).padStart(6)} | ${f.p99.toFixed(2).padStart(6)} | ${f.max.toFixed(1).padStart(6)} | ${f.refused}`,
      );
    }
    console.log("(transport floor: the same 4 hops per pair without the ledger, one at a time, measured in this run)");
    console.log(projectionCatchUpMs === null ? "projection: not running" : `projection caught up ${projectionCatchUpMs.toFixed(0)} ms after the last settle`);
    console.log(`CPU per pair over ${accounts} accounts (ms): ${cpu.map((c) => `${c.name} ${(c.cpuMs / spread.pairs).toFixed(3)}`).join(", ")}; ${(cpu.reduce((a, c) => a + c.cpuMs, 0) / (spread.seconds * 10)).toFixed(0)} % of one core in all`);
    console.log(`p99 reserve+settle for ${accounts} accounts: ${spread.p99.toFixed(2)} ms (aim < 10 ms): ${spread.p99 < 10 ? "met" : "NOT met"}`);
  } finally {
    for (const c of [child, projector]) {
      if (!c || c.exitCode !== null) continue;
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGTERM");
      await exited;
    }
    if (inProcess) {
      await inProcess.ledger.stop();
      await inProcess.nc.close();
    }
    const jsm = await jetstreamManager(client);
    await jsm.streams.delete(topo.streams.ledger.name).catch(() => {});
    await client.close();
    await tdb.destroy();
  }
}

await main();
