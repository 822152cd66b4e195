// What a client that leaves early still costs (issue 33), on the whole stack (real gateway,
// ledger and scorer processes; 127.0.0.1 only):
//   node test/bench/disconnect-cost.bench.ts
//   DISCONNECT_RUNS=20 MODEL_LATENCY_MS=1000 LEAVE_AFTER_MS=500 node test/bench/disconnect-cost.bench.ts
// The scorer's two generators sit behind the strict OpenAI fake, which answers every chat
// completion after MODEL_LATENCY_MS. Each run sends a synchronous rank of 8 assets with
// copy_context (16 evaluations at most) over its own socket, destroys the socket
// LEAVE_AFTER_MS later, then waits until the stack is idle, and counts the fake's chat calls:
// before leaving, after leaving (later than leaving + 300 ms, the time a cancel takes to reach
// the workers) and in all; and the credits the ledger charged the request.
// It imports only what the checkout of 4b712c3 has too, so the same file measures the code
// from before cancellation ("before") and the current tree ("after").
import { request as httpRequest } from "node:http";
import { jetstreamManager } from "@nats-io/jetstream";
import type { RecordedRequest, Reply } from "../../packages/models/test/support/fake-provider.ts";
import { openaiChatCompletion, startStrictOpenAI } from "../../packages/models/test/support/strict/openai.ts";
import { rank } from "../support/http.ts";
import { missingServices } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { percentile } from "../support/stats.ts";

const envNumber = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`disconnect-cost.bench: ${name} must be a positive integer, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
};
const RUNS = envNumber("DISCONNECT_RUNS", 10);
const MODEL_LATENCY_MS = envNumber("MODEL_LATENCY_MS", 1_000);
const LEAVE_AFTER_MS = envNumber("LEAVE_AFTER_MS", 500);
const GRACE_MS = 300;
/** The stack is idle when the fake has had no call for this long and the scorer's queue is empty. */
const QUIET_MS = MODEL_LATENCY_MS + 1_000;
/** A run whose leftover work has not drained by then is reported as such. */
const DRAIN_LIMIT_MS = 120_000;
const ASSETS = 8;
const API_KEY = "sk-bench-not-real";
const audience = { name: "Bench parents", demographics: { ageRange: "25-34" } };

const missing = missingServices(["gateway", "ledger", "scorer"]);
if (missing.length > 0) {
  console.error(`disconnect-cost.bench: cannot run, missing ${missing.join(", ")}`);
  process.exit(2);
}

const answer = (req: RecordedRequest): Reply | undefined => {
  if (!req.path.startsWith("/v1/chat/completions")) return undefined;
  const text = "I would stop scrolling for this one.\nRATIONALE: The colours pop.\nPRODUCT: A stroller.";
  return { status: 200, body: openaiChatCompletion(text, (req.body as { model: string }).model), delayMs: MODEL_LATENCY_MS };
};

/** Sends the request over its own socket and destroys it `leaveAfterMs` after the body went out. */
function sendAndLeave(baseUrl: string, key: string, json: unknown, leaveAfterMs: number): Promise<{ sentAt: number; leftAt: number; answered: number | null }> {
  return new Promise((resolve) => {
    const body = JSON.stringify(json);
    const req = httpRequest(`${baseUrl}/api/v1/rank`, { method: "POST", agent: false, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } });
    let answered: number | null = null;
    req.on("response", (res) => {
      answered = res.statusCode ?? 0;
      res.resume();
    });
    req.on("error", () => undefined);
    req.end(body, () => {
      const sentAt = performance.now();
      setTimeout(() => {
        req.destroy();
        resolve({ sentAt, leftAt: performance.now(), answered });
      }, leaveAfterMs);
    });
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until nothing of the run is left: the fake quiet for QUIET_MS, the scorer's consumer with nothing pending or in hand. */
async function untilIdle(stack: Stack, calls: () => RecordedRequest[]): Promise<boolean> {
  const jsm = await jetstreamManager(stack.nc);
  const until = performance.now() + DRAIN_LIMIT_MS;
  while (performance.now() < until) {
    const last = calls().at(-1)?.receivedAt ?? 0;
    if (performance.now() - last >= QUIET_MS) {
      const c = await jsm.consumers.info(stack.topo.streams.jobs.name, stack.topo.consumer("scorer"));
      if (c.num_pending === 0 && c.num_ack_pending === 0) return true;
    }
    await pause(200);
  }
  return false;
}

/** Credits charged once the reservation has closed (settled or expired). */
async function chargedOnceClosed(stack: Stack, accountId: string, granted: number): Promise<number> {
  const until = performance.now() + 60_000;
  while (performance.now() < until) {
    const b = await stack.ledger.balance({ accountId });
    if (b.ok && b.value.reserved === 0) return granted - b.value.available;
    await pause(200);
  }
  throw new Error(`the reservation of ${accountId} did not close within 60 s`);
}

interface Run {
  before: number;
  after: number;
  total: number;
  aborted: number;
  billed: number;
}

async function main() {
  const provider = await startStrictOpenAI({ apiKey: API_KEY, reply: answer });
  const stack = await startStack({
    logLevel: "warn",
    voterEnv: false,
    refinementEnv: false,
    // The embedder stays sim: the generators' calls are what is counted.
    scorerEnv: { ADRANK_GENERATORS: "openai:gpt-4.1-mini,openai:gpt-4o-mini", OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: API_KEY },
  });
  // A throw outside main's promise (the fake's request handler) would skip the finally below and leave the services running.
  process.once("uncaughtException", (err) => {
    console.error(err);
    void Promise.allSettled([stack.stop(), provider.close()]).then(() => process.exit(1));
  });
  const chatCalls = () => provider.requests.filter((r) => r.path.startsWith("/v1/chat/completions"));
  const runs: Run[] = [];
  try {
    // Warm-up, answered in full: the fake compiles OpenAI's schema on its first request, and the
    // scorer opens its connections.
    const warm = await stack.createAccountDirect({ credits: 10 });
    const warmed = await rank(stack.baseUrl, warm.key, { assets: [{ url: creative(999) }], audience, refine_close_pairs: false });
    if (warmed.status !== 200) throw new Error(`warm-up rank answered ${warmed.status}: ${JSON.stringify(warmed.body)}`);

    for (let run = 0; run < RUNS; run++) {
      const granted = 100;
      const account = await stack.createAccountDirect({ credits: granted });
      const assets = Array.from({ length: ASSETS }, (_, i) => ({ url: creative(run * 50 + i), copy_context: { adHeadline: `Fold it in one hand (${i})`, adBody: "Free returns for 100 days." } }));
      const first = chatCalls().length;
      const abandonedBefore = provider.abandoned();
      const { sentAt, leftAt, answered } = await sendAndLeave(stack.baseUrl, account.key, { assets, audience, refine_close_pairs: false }, LEAVE_AFTER_MS);
      if (answered !== null) throw new Error(`run ${run + 1}: answered ${answered} before the client left`);
      const drained = await untilIdle(stack, chatCalls);
      const calls = chatCalls().slice(first);
      const billed = await chargedOnceClosed(stack, account.accountId, granted);
      const r: Run = {
        before: calls.filter((c) => c.receivedAt <= leftAt).length,
        after: calls.filter((c) => c.receivedAt > leftAt + GRACE_MS).length,
        total: calls.length,
        aborted: provider.abandoned() - abandonedBefore,
        billed,
      };
      runs.push(r);
      console.log(
        `run ${run + 1}/${RUNS}: left after ${Math.round(leftAt - sentAt)} ms; chat calls before leaving ${r.before}, after leaving ${r.after}, in all ${r.total} ` +
          `(${r.aborted} aborted in flight); billed ${r.billed} credits${drained ? "" : `; STILL BUSY after ${DRAIN_LIMIT_MS / 1000} s`}`,
      );
    }
  } finally {
    await stack.stop();
    await provider.close();
  }

  const dist = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `p50 ${percentile(s, 50)}, p90 ${percentile(s, 90)}, max ${s.at(-1)}`;
  };
  const pick = (f: (r: Run) => number) => runs.map(f);
  console.log(`\ndisconnect at ${LEAVE_AFTER_MS} ms of a rank of ${ASSETS} assets with copy (16 evaluations at most, 6 chat calls each), model latency ${MODEL_LATENCY_MS} ms, ${runs.length} runs:`);
  console.log(`  chat calls started after leaving (+${GRACE_MS} ms): ${dist(pick((r) => r.after))}`);
  console.log(`  chat calls per request in all:                 ${dist(pick((r) => r.total))}`);
  console.log(`  chat calls before leaving:                     ${dist(pick((r) => r.before))}`);
  console.log(`  credits billed per request:                    ${dist(pick((r) => r.billed))}`);
}

await main();
