import { fixed } from "../../number-format.ts";

/** A linear map from data values to pixels, with the round ticks of its domain. */
export interface LinearScale {
  (value: number): number;
  domain: readonly [number, number];
  ticks: readonly number[];
  /** Formats a tick with as many decimals as its step needs. */
  label(value: number): string;
}

/** A step of 1, 2 or 5 times a power of ten that cuts `span` into about `target` parts. */
function niceStep(span: number, target: number): number {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/**
 * A scale over the values (or a fixed domain), widened to round ticks so the axis reads
 * 0.5, 1.0, 1.5 rather than 0.47, 0.93, 1.39. A single value, or none, gets a domain around it.
 *
 * @example
 * const x = linearScale([1.2, 4.7], [60, 600]); // x.domain [1, 5], x.ticks [1, 2, 3, 4, 5]
 */
export function linearScale(values: readonly number[], range: readonly [number, number], opts: { fixedDomain?: readonly [number, number]; step?: number; target?: number } = {}): LinearScale {
  let lo: number;
  let hi: number;
  let step: number;
  if (opts.fixedDomain) {
    [lo, hi] = opts.fixedDomain;
    step = opts.step ?? niceStep(hi - lo, opts.target ?? 4);
  } else {
    const finite = values.filter(Number.isFinite);
    let min = finite.length > 0 ? Math.min(...finite) : 0;
    let max = finite.length > 0 ? Math.max(...finite) : 1;
    if (max - min < 1e-12) {
      const half = Math.abs(min) > 1e-12 ? Math.abs(min) * 0.1 : 0.5;
      [min, max] = [min - half, max + half];
    }
    // A little room, so no point sits on the frame.
    const pad = (max - min) * 0.04;
    step = niceStep(max - min + 2 * pad, opts.target ?? 5);
    lo = Math.floor((min - pad) / step) * step;
    hi = Math.ceil((max + pad) / step) * step;
  }
  const ticks: number[] = [];
  for (let t = lo; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toFixed(12)));
  // As many decimals as the step needs to be exact: 0.25 needs 2, 0.5 needs 1, 20 needs none.
  let decimals = 0;
  while (decimals < 10 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6) decimals++;
  const [r0, r1] = range;
  const scale = ((value: number) => r0 + ((value - lo) / (hi - lo)) * (r1 - r0)) as LinearScale;
  return Object.assign(scale, { domain: [lo, hi] as const, ticks, label: (v: number) => fixed(v, decimals) });
}
