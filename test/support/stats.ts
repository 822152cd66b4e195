/** The nearest-rank percentile of sorted values (p in 0..100). */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

export const median = (xs: number[]): number => percentile([...xs].sort((a, b) => a - b), 50);

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(latenciesMs: number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

export const formatLatency = (s: LatencySummary): string =>
  `n=${s.count} p50 ${s.p50.toFixed(0)} ms, p90 ${s.p90.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`;
