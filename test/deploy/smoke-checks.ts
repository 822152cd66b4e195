// What a customer does first with the compose stack, through the published ports only:
//   node test/deploy/smoke-checks.ts      (run by scripts/deploy-smoke.sh once the stack is up)
// 1. a rank of the three example ads (plus a near twin, so refinement has a close pair) with
//    ad copy and close-pair refinement, sent with a traceparent;
// 2. that request's trace, read back from the Jaeger API: one trace across gateway, scorer,
//    refinement and panel-voter;
// 3. a pairwise request (five votes);
// 4. the console's page and its script.
// Prints one line per check and exits 1 at the first failure.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { call, rank } from "../support/http.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { createAccount, dashboardUrl, gatewayUrl, tracesUrl } from "./compose-project.ts";

const example = (name: string) => `data:image/png;base64,${readFileSync(join(REPO_ROOT, "examples/ads", name)).toString("base64")}`;
const copy = JSON.parse(readFileSync(join(REPO_ROOT, "examples/copy.json"), "utf8")) as Record<string, string>;
const audience = { name: "Trail runners", demographics: { ageRange: "25-34" } };

function check(condition: unknown, message: string, detail?: unknown): asserts condition {
  if (!condition) {
    console.error(`FAIL ${message}${detail === undefined ? "" : `\n${JSON.stringify(detail, null, 2).slice(0, 4000)}`}`);
    process.exit(1);
  }
}

const { keys } = createAccount("deploy-smoke", 500, 1);
const key = keys[0]!;

// 1. Rank with copy and refinement, traced.
const traceId = randomBytes(16).toString("hex");
const assets = [
  { id: "spring", url: example("spring-sale.png"), copy_context: copy },
  { id: "summer", url: example("summer-launch.png"), copy_context: copy },
  { id: "autumn", url: example("autumn-promo.png"), copy_context: copy },
  { id: "spring-twin", url: example("spring-sale.png"), copy_context: { ...copy, adCaption: "Same image, one more line" } },
];
const ranked = await rank(gatewayUrl(), key, { assets, audience, goal: "scroll-stopping", refine_close_pairs: true }, { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` } });
check(ranked.status === 200, `rank answered ${ranked.status}`, ranked.body);
const body = ranked.body as { ranked: Array<{ asset_id: string; score: number; score_layer: string; copy_lift: number | null }>; errors: unknown[]; summary: { scoring_evaluations: number; credits_used: number; close_pair_refinement: { enabled: boolean; pairs_evaluated: number } } };
check(body.errors.length === 0 && body.ranked.length === 4, "rank scored all four assets", body);
check(body.ranked.every((r) => r.score_layer === "full-ad-package" && r.copy_lift !== null), "every asset was scored with its copy, with a copy lift", body.ranked);
check(body.summary.scoring_evaluations === 8, "four assets with copy are eight evaluations", body.summary);
check(body.summary.close_pair_refinement.pairs_evaluated >= 1, "close-pair refinement ran at least one panel", body.summary.close_pair_refinement);
console.log(`ok rank: 4 assets with copy in ${ranked.ms.toFixed(0)} ms, ${body.summary.scoring_evaluations} evaluations, ${body.summary.close_pair_refinement.pairs_evaluated} refined pair(s), ${body.summary.credits_used} credits; order ${body.ranked.map((r) => `${r.asset_id} ${r.score.toFixed(2)}`).join(", ")}`);

// 2. The same request as one trace. Spans leave each service in batches (every 5 s by default).
const wanted = ["gateway", "scorer", "refinement", "panel-voter"];
type JaegerTrace = { spans: Array<{ processID: string }>; processes: Record<string, { serviceName: string }> };
let services: Map<string, number> = new Map();
const traceDeadline = Date.now() + 30_000;
while (Date.now() < traceDeadline) {
  const res = await call(tracesUrl(), "GET", `/api/traces/${traceId}`);
  if (res.status === 200) {
    const trace = (res.body as { data: JaegerTrace[] }).data[0]!;
    services = new Map();
    for (const span of trace.spans) {
      const name = trace.processes[span.processID]!.serviceName;
      services.set(name, (services.get(name) ?? 0) + 1);
    }
    if (wanted.every((s) => services.has(s))) break;
  }
  await new Promise((r) => setTimeout(r, 1_000));
}
check(wanted.every((s) => services.has(s)), `trace ${traceId} spans ${wanted.join(", ")}`, Object.fromEntries(services));
console.log(`ok trace ${traceId}: ${[...services].map(([s, n]) => `${s} ${n} spans`).join(", ")}`);

// 3. Pairwise: one pair, five blinded votes.
const pairwise = await call(gatewayUrl(), "POST", "/api/v1/pairwise", {
  key,
  json: { pairs: [{ pair_id: "spring-vs-autumn", a: { id: "spring", image_url: example("spring-sale.png") }, b: { id: "autumn", image_url: example("autumn-promo.png") } }], audience },
});
check(pairwise.status === 200, `pairwise answered ${pairwise.status}`, pairwise.body);
const pair = (pairwise.body as { pairs: Array<{ status: string; votes: unknown[]; winnerId?: string; votesFor?: number }> }).pairs[0]!;
check(pair.status === "done" && pair.votes.length === 5, "the pair got a completed panel of five votes", pair);
console.log(`ok pairwise: ${pair.winnerId} won ${pair.votesFor} of 5 in ${pairwise.ms.toFixed(0)} ms`);

// 4. The console: its page, and the script that page loads.
const page = await fetch(`${dashboardUrl()}/`);
const html = await page.text();
check(page.status === 200 && (page.headers.get("content-type") ?? "").includes("text/html"), `the console page answered ${page.status}`);
const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
check(script, "the console page names its script", html.slice(0, 500));
const js = await fetch(new URL(script, `${dashboardUrl()}/`));
check(js.status === 200 && (await js.text()).length > 1_000, `the console script ${script} answered ${js.status}`);
console.log(`ok console: page and ${script}`);
