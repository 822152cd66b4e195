// CPU per single-asset rank request, this checkout against an older one, in one run:
// rank-throughput.bench.ts from each checkout in turn (old, new, old, new, …), so that both
// see the same machine and the same neighbours. Each checkout runs its own services
// (test/support/paths.ts resolves REPO_ROOT from the bench file's own location).
//
//   node test/bench/cpu-before-after.bench.ts --baseline=/tmp/cpu-baseline [--pairs=3]
//        [--after=<checkout>]  the newer side (default: this checkout)
//        [--requests=6000] [--concurrency=32]
//
// Prints each run as it ends, then one table: req/s, p50, p99 and CPU ms per request per
// process and in all, the median of each side and their ratio, and the load average around
// every run (other work on the machine disturbs timing: read the ratios with it).
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../support/paths.ts";

const { values: args } = parseArgs({
  options: {
    baseline: { type: "string" },
    after: { type: "string" },
    pairs: { type: "string" },
    requests: { type: "string" },
    concurrency: { type: "string" },
  },
});
if (!args.baseline) {
  console.error("cpu-before-after.bench: --baseline=<checkout of the older commit, with node_modules> is required");
  process.exit(2);
}
const pairs = Number(args.pairs ?? 3);
const afterRoot = args.after ?? REPO_ROOT;
const passed = [...(args.requests ? [`--requests=${args.requests}`] : []), ...(args.concurrency ? [`--concurrency=${args.concurrency}`] : [])];

interface Run {
  side: "before" | "after";
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU ms per request, by process group as the throughput bench names them. */
  cpu: Map<string, number>;
  all: number;
  loadBefore: string;
  loadAfter: string;
  statuses: string;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

/** Runs the throughput bench of one checkout and reads its report. */
async function runOnce(side: Run["side"], root: string): Promise<Run> {
  const loadBefore = load();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "test/bench/rank-throughput.bench.ts"), ...passed], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`${side} (${root}) exited ${code}:\n${text}`))));
  });
  const number = (re: RegExp) => {
    const m = re.exec(output);
    if (!m) throw new Error(`${side}: no ${re} in the bench's report:\n${output}`);
    return Number(m[1]);
  };
  const cpu = new Map<string, number>();
  for (const m of output.matchAll(/^ {2}\| ([^|*]+?) \| ([0-9.]+) \| [0-9.]+ % \|$/gm)) if (m[1] !== "all of the above") cpu.set(m[1]!, Number(m[2]));
  return {
    side,
    perSecond: number(/throughput ([0-9.]+) req\/s/),
    p50: number(/p50 ([0-9.]+) ms/),
    p99: number(/p99 ([0-9.]+) ms/),
    cpu,
    all: number(/\| all of the above \| ([0-9.]+) \|/),
    loadBefore,
    loadAfter: load(),
    statuses: /statuses ([^\n]*)/.exec(output)?.[1] ?? "?",
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (n: number, digits = 2) => n.toFixed(digits);

console.log(`before: ${args.baseline}\nafter: ${afterRoot}\n${pairs} pairs, before first in each; load average ${load()} at start`);
const runs: Run[] = [];
for (let i = 0; i < pairs; i++) {
  for (const [side, root] of [["before", args.baseline], ["after", afterRoot]] as const) {
    const r = await runOnce(side, root);
    runs.push(r);
    console.log(`${side} #${i + 1}: ${fmt(r.perSecond, 1)} req/s, p50 ${fmt(r.p50, 1)} ms, p99 ${fmt(r.p99, 1)} ms, CPU ${fmt(r.all)} ms per request; ${r.statuses}; load ${r.loadBefore} → ${r.loadAfter}`);
  }
}

const sides = { before: runs.filter((r) => r.side === "before"), after: runs.filter((r) => r.side === "after") };
const processes = [...new Set(runs.flatMap((r) => [...r.cpu.keys()]))];
const row = (what: string, of: (r: Run) => number, digits = 2) => {
  const b = sides.before.map(of);
  const a = sides.after.map(of);
  const ratio = median(a) / median(b);
  console.log(`| ${what} | ${b.map((x) => fmt(x, digits)).join(", ")} | ${a.map((x) => fmt(x, digits)).join(", ")} | × ${fmt(ratio)} |`);
};
console.log("\n| figure | before (each run) | after (each run) | ratio of medians |");
console.log("| --- | --- | --- | ---: |");
row("req/s", (r) => r.perSecond, 1);
row("p50 ms", (r) => r.p50, 1);
row("p99 ms", (r) => r.p99, 1);
for (const p of processes) row(`CPU ms per request: ${p}`, (r) => r.cpu.get(p) ?? 0);
row("**CPU ms per request, all processes**", (r) => r.all);
console.log(`\nload average at the start of each run: ${runs.map((r) => `${r.side} ${r.loadBefore.split(" ")[0]}`).join(", ")}; ${load()} at the end`);
