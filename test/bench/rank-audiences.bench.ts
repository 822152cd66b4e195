// Side-by-side benchmark of the whole stack (real gateway, ledger and scorer processes; 127.0.0.1 only):
//   node test/bench/rank-audiences.bench.ts [--quick] [--latency=<ms>]
// With the scorer's fixed-latency sim (SIM_LATENCY_MS) and enough scorer slots for every
// audience's 4 assets in flight, one POST /api/v1/rank/audiences of N assets with copy for 3
// audiences should take about as long as one audience's rank of the same assets, not three
// times as long: the audiences run side by side and share each image's preparation. Prints
// the medians, the ratio side-by-side / one rank (target ≤ 1.15) and the ratio to three ranks
// one after the other (what a caller without this operation waits).
import { call, rank } from "../support/http.ts";
import { missingServices } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";
import { median } from "../support/stats.ts";

const quick = process.argv.includes("--quick");
const LATENCY_MS = Number(process.argv.find((a) => a.startsWith("--latency="))?.slice("--latency=".length) ?? 200);
const TARGET_RATIO = 1.15;
// 8 assets with copy: 2 waves of 4 assets, 16 evaluations per audience, 48 in all (inside the 60 window).
const ASSETS = 8;
const AUDIENCES = [
  { name: "Bargain hunters", demographics: { priceSensitivity: "very-high" } },
  { name: "Skeptics", demographics: { adSkepticism: "very-high" } },
  { name: "Weekend runners", demographics: { ageRange: "25-34" } },
];

const missing = missingServices(["gateway", "ledger", "scorer"]);
if (missing.length > 0) {
  console.error(`rank-audiences.bench: cannot run, missing ${missing.join(", ")}`);
  process.exit(2);
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function timed(res: Promise<{ status: number; body: { errors?: unknown[]; by_audience?: Array<{ errors: unknown[] }> }; ms: number }>, stack: Stack): Promise<number> {
  const r = await res;
  if (r.status !== 200) throw new Error(`answered ${r.status}: ${JSON.stringify(r.body)}\n${stack.output().slice(-4000)}`);
  const errors = r.body.by_audience ? r.body.by_audience.flatMap((a) => a.errors) : (r.body.errors ?? []);
  if (errors.length > 0) throw new Error(`per-asset errors: ${JSON.stringify(errors)}`);
  return r.ms;
}

async function main(): Promise<boolean> {
  const stack = await startStack({
    logLevel: "warn",
    // Every audience's 4 assets × 2 evaluations at once.
    scorerEnv: { SIM_LATENCY_MS: String(LATENCY_MS), SCORER_CONCURRENCY: String(8 * AUDIENCES.length) },
  });
  try {
    const rounds = quick ? 3 : 7;
    const singles: number[] = [];
    const sequential: number[] = [];
    const sideBySide: number[] = [];
    const assetsOf = (round: number) => Array.from({ length: ASSETS }, (_, i) => ({ url: creative(round * 100 + i + 1), copy_context: { adHeadline: `Offer ${i}`, adBody: "Free delivery this week." } }));
    // Warm-up: every scorer loop, the embedding cache, the connections.
    const warm = await stack.createAccountDirect({ credits: 1_000 });
    await timed(call(stack.baseUrl, "POST", "/api/v1/rank/audiences", { key: warm.key, json: { assets: assetsOf(99), audiences: AUDIENCES, refine_close_pairs: false } }), stack);
    for (let round = 0; round < rounds; round++) {
      // Fresh keys: 48 evaluations a request, 60 a minute per key.
      const keys: Account[] = await Promise.all(Array.from({ length: 2 + AUDIENCES.length }, () => stack.createAccountDirect({ credits: 1_000 })));
      const assets = assetsOf(round);
      const one = await timed(rank(stack.baseUrl, keys[0]!.key, { assets, audience: AUDIENCES[0], refine_close_pairs: false }), stack);
      let chain = 0;
      for (const [k, audience] of AUDIENCES.entries()) chain += await timed(rank(stack.baseUrl, keys[2 + k]!.key, { assets, audience, refine_close_pairs: false }), stack);
      const together = await timed(call(stack.baseUrl, "POST", "/api/v1/rank/audiences", { key: keys[1]!.key, json: { assets, audiences: AUDIENCES, refine_close_pairs: false } }), stack);
      singles.push(one);
      sequential.push(chain);
      sideBySide.push(together);
    }
    const single = median(singles);
    const side = median(sideBySide);
    const chain = median(sequential);
    const ratio = side / single;
    console.log(`side by side (SIM_LATENCY_MS=${LATENCY_MS}, ${ASSETS} assets with copy, ${AUDIENCES.length} audiences, ${rounds} rounds, medians):`);
    console.log(`  one audience's rank (${2 * ASSETS} evaluations): ${fmt(single)}   [${singles.map(fmt).join(", ")}]`);
    console.log(`  ${AUDIENCES.length} ranks one after the other: ${fmt(chain)}   [${sequential.map(fmt).join(", ")}]`);
    console.log(`  rank across ${AUDIENCES.length} audiences (${2 * ASSETS * AUDIENCES.length} evaluations): ${fmt(side)}   [${sideBySide.map(fmt).join(", ")}]`);
    console.log(`  side by side / one rank: ${ratio.toFixed(3)} (target <= ${TARGET_RATIO})  ${ratio <= TARGET_RATIO ? "PASS" : "FAIL"}`);
    console.log(`  side by side / ranks one after the other: ${(side / chain).toFixed(3)}`);
    return ratio <= TARGET_RATIO;
  } finally {
    await stack.stop();
  }
}

process.exit((await main()) ? 0 : 1);
