// Calibration statistics benchmark (pure computation, no stack):
//   node test/bench/eval-stats.bench.ts [--quick]
// Times calibrationReport (what GET /api/v1/calibration computes on every call) for 500, 2,000
// and 10,000 outcomes of one metric: rankings of 8 assets spread over 3 goals, so each size is
// computed twice (the pooled row and the goal rows), each with 1,000 bootstrap resamples of
// four figures. Prints p50 and p95 over a few runs after a warm-up.
import { cpus, loadavg } from "node:os";
import { calibrationReport, seededRandom, type CalibrationRow } from "@adrank/eval-stats";
import { percentile } from "../support/stats.ts";

const quick = process.argv.includes("--quick");
const runs = quick ? 3 : 7;
const goals = ["awareness", "click-through", "purchase-intent"];

/** Outcomes of rankings of 8 assets: the value follows the score plus noise; a few scores tie. */
function outcomes(n: number): CalibrationRow[] {
  const random = seededRandom(n);
  return Array.from({ length: n }, (_, i) => {
    const ranking = Math.floor(i / 8);
    const score = Math.round(random() * 40) / 4; // steps of 0.25: ties happen, as in real scores
    return {
      metric: "ctr",
      goal: goals[ranking % goals.length]!,
      requestId: `req-${ranking}`,
      score,
      scoreBeforeRefine: score + (random() - 0.5) / 2,
      value: score / 10 + random(),
      impressions: 1_000,
      simulated: true,
    };
  });
}

/** Wall and CPU milliseconds of each run: on a shared machine the CPU time is the steadier figure. */
function timeRuns(rows: CalibrationRow[]): { wall: number[]; cpu: number[] } {
  calibrationReport(rows); // warm-up: the JIT
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    calibrationReport(rows);
    const used = process.cpuUsage(startCpu);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1_000);
  }
  return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) };
}

const ms = (xs: number[], p: number) => percentile(xs, p).toFixed(0).padStart(5);

/** A fixed loop, timed, so figures from a busy shared machine can be scaled against a quiet one. */
function referenceLoopMs(): number {
  const xs = new Float64Array(1_000_000).map((_, i) => i % 7);
  const start = performance.now();
  let sum = 0;
  for (let r = 0; r < 100; r++) for (let i = 0; i < xs.length; i++) sum += xs[i]! * xs[i]!;
  if (sum < 0) throw new Error("unreachable");
  return performance.now() - start;
}

console.log(`eval-stats benchmark: ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}, ${runs} runs per size, 1,000 resamples, rankings of 8`);
console.log(`  reference loop (1e8 multiply-adds): ${referenceLoopMs().toFixed(0)} ms`);
for (const n of [500, 2_000, 10_000]) {
  const rows = outcomes(n);
  const { wall, cpu } = timeRuns(rows);
  const rho = calibrationReport(rows).metrics[0]!.pooled.spearman_rho;
  console.log(`  calibrationReport of ${String(n).padStart(6)} outcomes: wall p50 ${ms(wall, 50)} ms  p95 ${ms(wall, 95)} ms | cpu p50 ${ms(cpu, 50)} ms  p95 ${ms(cpu, 95)} ms  (pooled rho ${rho?.value} [${rho?.ci_low}, ${rho?.ci_high}])`);
}
