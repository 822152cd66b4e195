// Close-pair refinement benchmark (real gateway, ledger, scorer, refinement and panel-voter
// processes; 127.0.0.1 only):
//   node test/bench/refinement.bench.ts [--quick] [--latency=<ms>]
// The voter model answers after a fixed latency (sim with SIM_LATENCY_MS on the panel-voter
// only); the scorer answers at once. A rank request whose assets make 6 close pairs runs 30
// votes; they all run at once, so refinement should add at most 1.15 x one vote's latency.
// One vote's latency is measured in the same run: a pairwise request of one pair (5 votes at
// once). The added time is the same request with refine_close_pairs on minus off.
import { cpus, loadavg } from "node:os";
import { call, rank } from "../support/http.ts";
import { missingServices } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";
import { median } from "../support/stats.ts";

const quick = process.argv.includes("--quick");
const LATENCY_MS = Number(process.argv.find((a) => a.startsWith("--latency="))?.slice("--latency=".length) ?? 400);
const TARGET_RATIO = 1.15;
const audience = { name: "Bench bakers", demographics: { ageRange: "45-54" } };
// One design at five sizes: sim scores them within 0.30 of each other, so all 10 pairs are
// close and the 6 closest are refined.
const assets = [96, 100, 104, 108, 112].map((size, i) => ({ url: creative(5, size, size), id: `five-${i}` }));

const missing = missingServices(["gateway", "ledger", "scorer", "refinement", "panel-voter"]);
if (missing.length > 0) {
  console.error(`refinement.bench: cannot run, missing ${missing.join(", ")}`);
  process.exit(2);
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function timed(stack: Stack, account: Account, refine: boolean): Promise<{ ms: number; pairs: number }> {
  const res = await rank(stack.baseUrl, account.key, { assets, audience, refine_close_pairs: refine });
  if (res.status !== 200) throw new Error(`rank answered ${res.status}: ${JSON.stringify(res.body)}`);
  const refinement = res.body.summary.close_pair_refinement;
  if (refine && refinement.pairs_evaluated !== 6) throw new Error(`expected 6 refined pairs, got ${JSON.stringify(refinement).slice(0, 400)}`);
  return { ms: res.ms, pairs: refinement.pairs_evaluated };
}

async function onePanel(stack: Stack, account: Account): Promise<number> {
  const res = await call(stack.baseUrl, "POST", "/api/v1/pairwise", { key: account.key, json: { pairs: [{ pair_id: "p", a: { id: "a", image_url: assets[0]!.url }, b: { id: "b", image_url: assets[1]!.url } }], audience } });
  if (res.status !== 200 || res.body.pairs[0].status !== "done") throw new Error(`pairwise answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.ms;
}

const stack = await startStack({ logLevel: "warn", voterEnv: { SIM_LATENCY_MS: String(LATENCY_MS) } });
let pass: boolean;
try {
  const rounds = quick ? 3 : 9;
  const off: number[] = [];
  const on: number[] = [];
  const panels: number[] = [];
  const warm = await stack.createAccountDirect({ credits: 1_000 });
  await timed(stack, warm, true);
  await onePanel(stack, warm);
  for (let round = 0; round < rounds; round++) {
    // A fresh key per round keeps every request inside the per-key windows.
    const account = await stack.createAccountDirect({ credits: 1_000 });
    off.push((await timed(stack, account, false)).ms);
    on.push((await timed(stack, account, true)).ms);
    panels.push(await onePanel(stack, account));
  }
  const added = median(on) - median(off);
  const vote = median(panels);
  const ratio = added / vote;
  pass = ratio <= TARGET_RATIO;
  console.log(`refinement of 6 close pairs (30 votes), voter latency ${LATENCY_MS} ms, ${rounds} rounds, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`);
  console.log(`  rank, refinement off   p50 ${fmt(median(off))}  (rounds: ${off.map(fmt).join(", ")})`);
  console.log(`  rank, refinement on    p50 ${fmt(median(on))}  (rounds: ${on.map(fmt).join(", ")})`);
  console.log(`  one panel (1 pair)     p50 ${fmt(vote)}  = one vote's latency end to end`);
  console.log(`  added by refinement    ${fmt(added)} = ${ratio.toFixed(3)} x one vote (target <= ${TARGET_RATIO}); ${(added / LATENCY_MS).toFixed(3)} x the model's own latency`);
  console.log(pass ? "PASS" : "FAIL");
} finally {
  await stack.stop();
}
process.exit(pass ? 0 : 1);
