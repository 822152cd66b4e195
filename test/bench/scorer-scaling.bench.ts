// Scorer scaling in containers, on the compose stack that scripts/deploy-smoke.sh brought up
// (it runs this; by hand: `bash scripts/deploy-smoke.sh --full`):
//   node test/bench/scorer-scaling.bench.ts [--quick]
// sim is delayed by SIM_LATENCY_MS to stand in for a provider. The same batch (C clients at
// once, each sending N rank requests of 4 assets one after another; a fresh key per client)
// runs against 1 and then 3 scorer replicas. The gateway keeps at most 4 assets of a request
// in flight, so C clients offer 4C evaluations at once; a replica takes SCORER_CONCURRENCY (4).
// The speed-up 3 replicas can give is therefore min(3, 4C / 4).
// Then, with 3 replicas, one scorer container is killed (by id) mid-batch: every request must
// complete, and the ledger must have charged each evaluation exactly once.
import { percentile } from "../support/stats.ts";
import { rank } from "../support/http.ts";
import { creative } from "../support/png.ts";
import { compose, containersOf, createAccount, docker, gatewayUrl, waitHealthy } from "../deploy/compose-project.ts";

const quick = process.argv.includes("--quick");
const CLIENTS = 3;
const REQUESTS_PER_CLIENT = quick ? 2 : 5;
const ASSETS_PER_REQUEST = 4;
const SCORER_CONCURRENCY = 4;
const LATENCY_MS = 1_000;
const ACK_WAIT_MS = 5_000;
const MIN_SPEEDUP = 2.0;
const audience = { name: "Bench shoppers", demographics: { shoppingIntent: "comparing" } };

let variant = 10_000;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Phase {
  wallMs: number;
  latencies: number[];
  creditsUsed: number;
  evaluations: number;
}

function scaleScorers(replicas: number): Promise<string[]> {
  compose(["up", "-d", "--no-deps", "--scale", `scorer=${replicas}`, "scorer"], { SIM_LATENCY_MS: String(LATENCY_MS), SCORER_ACK_WAIT_MS: String(ACK_WAIT_MS) });
  return waitHealthy("scorer", replicas);
}

async function oneRank(key: string): Promise<{ ms: number; credits: number; evaluations: number; remaining: number }> {
  const assets = Array.from({ length: ASSETS_PER_REQUEST }, () => ({ url: creative(variant++) }));
  const res = await rank(gatewayUrl(), key, { assets, audience, refine_close_pairs: false });
  if (res.status !== 200) throw new Error(`rank answered ${res.status}: ${JSON.stringify(res.body)}`);
  if (res.body.errors.length > 0) throw new Error(`per-asset errors: ${JSON.stringify(res.body.errors)}`);
  return { ms: res.ms, credits: res.body.summary.credits_used, evaluations: res.body.summary.scoring_evaluations, remaining: res.body.summary.credits_remaining };
}

/** Every client's requests one after another, the clients at once. */
async function batch(keys: string[], during?: () => Promise<void>): Promise<Phase> {
  const started = performance.now();
  const results = await Promise.all([
    ...keys.map(async (key) => {
      const out = [];
      for (let i = 0; i < REQUESTS_PER_CLIENT; i++) out.push(await oneRank(key));
      return out;
    }),
    during?.().then(() => []),
  ]);
  const all = results.flat().filter((r) => r !== undefined);
  return {
    wallMs: performance.now() - started,
    latencies: all.map((r) => r.ms).sort((a, b) => a - b),
    creditsUsed: all.reduce((sum, r) => sum + r.credits, 0),
    evaluations: all.reduce((sum, r) => sum + r.evaluations, 0),
  };
}

async function warm(key: string): Promise<void> {
  await Promise.all(Array.from({ length: CLIENTS }, () => oneRank(key)));
}

const describe = (p: Phase) => `${fmt(p.wallMs)} for ${p.latencies.length} requests (${p.evaluations} evaluations); request p50 ${fmt(percentile(p.latencies, 50))}, p90 ${fmt(percentile(p.latencies, 90))}, max ${fmt(p.latencies.at(-1)!)}`;

const expected = Math.min(3, (CLIENTS * ASSETS_PER_REQUEST) / SCORER_CONCURRENCY);
console.log(`scorer scaling (${quick ? "quick" : "full"}): SIM_LATENCY_MS=${LATENCY_MS}, ${CLIENTS} clients x ${REQUESTS_PER_CLIENT} requests x ${ASSETS_PER_REQUEST} assets`);

const { keys: phaseKeys } = createAccount("bench-scaling", 10_000, 2 * (CLIENTS + 1));
await scaleScorers(1);
await warm(phaseKeys[0]!);
const one = await batch(phaseKeys.slice(1, CLIENTS + 1));
console.log(`  1 scorer:   ${describe(one)}`);

await scaleScorers(3);
await warm(phaseKeys[CLIENTS + 1]!);
const three = await batch(phaseKeys.slice(CLIENTS + 2));
console.log(`  3 scorers:  ${describe(three)}`);
const speedup = one.wallMs / three.wallMs;
console.log(`  speed-up ${speedup.toFixed(2)} x (what the 4-assets-in-flight rule and ${CLIENTS} concurrent clients allow: ${expected.toFixed(2)} x; aim >= ${MIN_SPEEDUP})`);

// Kill one of three scorers a little into the batch, on an account of its own so the ledger's
// balance can be compared with what the responses say they charged.
const granted = 1_000;
const killAccount = createAccount("bench-kill", granted, CLIENTS + 1);
const victims = containersOf("scorer");
const victim = victims[0]!;
const killed = await batch(killAccount.keys.slice(0, CLIENTS), async () => {
  await new Promise((r) => setTimeout(r, LATENCY_MS * 1.5));
  docker(["kill", victim]);
});
const after = await oneRank(killAccount.keys[CLIENTS]!);
const charged = killed.creditsUsed + after.credits;
const ledgerDrop = granted - after.remaining;
const expectedEvaluations = CLIENTS * REQUESTS_PER_CLIENT * ASSETS_PER_REQUEST;
console.log(`  kill 1 of 3 scorers (${victim.slice(0, 12)}) ${fmt(LATENCY_MS * 1.5)} into the batch, SCORER_ACK_WAIT_MS=${ACK_WAIT_MS}: ${describe(killed)}`);
const waited = killed.latencies.filter((ms) => ms > ACK_WAIT_MS).length;
console.log(`  ${waited} of ${killed.latencies.length} requests waited out the ack wait for a redelivered job; the killed container is now ${docker(["inspect", "-f", "{{.State.Status}} (restarts: {{.RestartCount}})", victim])}`);
console.log(`  billing: responses charged ${charged} credits for ${killed.evaluations + after.evaluations} evaluations; the ledger's balance fell by ${ledgerDrop}`);

const failures: string[] = [];
if (speedup < MIN_SPEEDUP) failures.push(`speed-up ${speedup.toFixed(2)} is below ${MIN_SPEEDUP}`);
if (killed.latencies.length !== CLIENTS * REQUESTS_PER_CLIENT) failures.push("not every request of the kill batch completed");
if (killed.evaluations !== expectedEvaluations) failures.push(`the kill batch billed ${killed.evaluations} evaluations, expected ${expectedEvaluations}`);
if (charged !== ledgerDrop) failures.push(`responses charged ${charged} but the ledger's balance fell by ${ledgerDrop}`);
if (failures.length > 0) {
  console.error(`FAIL ${failures.join("; ")}`);
  process.exit(1);
}
console.log("ok scorer scaling");
