/** An axis's range and its ticks. */
export interface NiceScale {
  domain: [number, number];
  ticks: number[];
}

// Steps a reader counts in: 1, 2, 2.5 or 5 times a power of ten.
const STEPS = [1, 2, 2.5, 5, 10];

/**
 * Round ticks around `values` (about `count` of them): 0.018, 0.022 … rather than the
 * 0.0315 an even split of the data's range gives. One value, or none, gets a small range
 * around it so the dot is not drawn on the frame.
 */
export function niceScale(values: readonly number[], count = 5): NiceScale {
  const finite = values.filter(Number.isFinite);
  let low = finite.length > 0 ? Math.min(...finite) : 0;
  let high = finite.length > 0 ? Math.max(...finite) : 1;
  if (low === high) {
    const pad = low === 0 ? 1 : Math.abs(low) / 10;
    low -= pad;
    high += pad;
  }
  const rough = (high - low) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = STEPS.map((s) => s * power).find((s) => s >= rough * (1 - 1e-9)) ?? 10 * power;
  const start = Math.floor(low / step) * step;
  const end = Math.ceil(high / step) * step;
  // Rounded to the step's decimals, so 0.1 + 0.2 ticks read 0.3.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const ticks: number[] = [];
  for (let i = 0; start + i * step <= end + step / 1e6; i++) ticks.push(Number((start + i * step).toFixed(decimals)));
  return { domain: [ticks[0]!, ticks.at(-1)!], ticks };
}
