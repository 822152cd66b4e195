import { mean } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { bootstrapInterval, seededRandom } from "../src/index.ts";

const meanOfAll = (sample: readonly (readonly number[])[]) => mean(sample.flat());

function normals(n: number, seed: number): number[] {
  const random = seededRandom(seed);
  // Box-Muller: standard normal values.
  return Array.from({ length: n }, () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
}

describe("bootstrapInterval", () => {
  it("is the type-7 percentile interval of the resampled values", () => {
    // A statistic that returns 1, 2, ..., 1000 in turn: the 2.5 % quantile of 1..1000 is at
    // index 999 * 0.025 = 24.975, between 25 and 26: 25.975; the 97.5 % at 974.025: 975.025.
    let call = 0;
    const ci = bootstrapInterval([[0]], () => ++call, { resamples: 1_000, random: seededRandom(1) });
    expect(ci!.low).toBeCloseTo(25.975, 9);
    expect(ci!.high).toBeCloseTo(975.025, 9);
    // At 90 %: index 999 * 0.05 = 49.95 -> 50.95; 999 * 0.95 = 949.05 -> 950.05.
    call = 0;
    const ci90 = bootstrapInterval([[0]], () => ++call, { resamples: 1_000, random: seededRandom(1), level: 0.9 });
    expect(ci90!.low).toBeCloseTo(50.95, 9);
    expect(ci90!.high).toBeCloseTo(950.05, 9);
  });

  it("skips resamples where the statistic is undefined, and is null when all are", () => {
    // Odd calls undefined: the values are 2, 4, ..., 1000 (500 of them); 2.5 % at index
    // 499 * 0.025 = 12.475 -> 26 + 0.475 * 2 = 26.95.
    let call = 0;
    const ci = bootstrapInterval([[0]], () => (++call % 2 ? null : call), { resamples: 1_000, random: seededRandom(1) });
    expect(ci!.low).toBeCloseTo(26.95, 9);
    expect(bootstrapInterval([[1, 2, 3]], () => null, { resamples: 50, random: seededRandom(1) })).toBeNull();
  });

  it("gives the same interval for the same seed, another for another seed", () => {
    const data = [normals(50, 3)];
    const ci = (seed: number) => bootstrapInterval(data, meanOfAll, { resamples: 500, random: seededRandom(seed) });
    expect(ci(9)).toEqual(ci(9));
    expect(ci(9)).not.toEqual(ci(10));
  });

  it("covers the estimate of well-behaved data, about ±1.96 standard errors wide", () => {
    const data = normals(400, 11);
    const ci = bootstrapInterval([data], meanOfAll, { resamples: 2_000, random: seededRandom(4) })!;
    const estimate = mean(data);
    expect(ci.low).toBeLessThan(estimate);
    expect(ci.high).toBeGreaterThan(estimate);
    // Standard error of the mean of 400 unit normals: 1 / 20 = 0.05; the 95 % width is about 0.196.
    expect(ci.high - ci.low).toBeGreaterThan(0.15);
    expect(ci.high - ci.low).toBeLessThan(0.25);
  });

  it("narrows as n grows (about 1 / sqrt(n))", () => {
    const width = (n: number) => {
      const ci = bootstrapInterval([normals(n, n)], meanOfAll, { resamples: 1_000, random: seededRandom(2) })!;
      return ci.high - ci.low;
    };
    const [w100, w1600] = [width(100), width(1_600)];
    expect(w1600).toBeLessThan(w100);
    // 16 times the points: a quarter of the width, give or take resampling noise.
    expect(w1600 / w100).toBeGreaterThan(0.18);
    expect(w1600 / w100).toBeLessThan(0.33);
  });

  it("keeps each stratum's size and draws each stratum only from itself", () => {
    const strata = [["a1", "a2", "a3"], ["b1"], ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]];
    const seen = strata.map(() => new Set<string>());
    bootstrapInterval(
      strata,
      (sample) => {
        expect(sample.map((s) => s.length)).toEqual([3, 1, 7]);
        sample.forEach((s, k) => s.forEach((item) => {
          expect(strata[k]).toContain(item);
          seen[k]!.add(item);
        }));
        return 0;
      },
      { resamples: 200, random: seededRandom(8) },
    );
    // With replacement, over 200 resamples every item turns up.
    expect(seen.map((s) => s.size)).toEqual([3, 1, 7]);
  });

  it("weights strata by their size, not equally: a stratified mean stays near the pooled mean", () => {
    // 90 zeros in one stratum, 10 ones in another: an equal-weight scheme would centre on 0.5.
    const ci = bootstrapInterval([new Array<number>(90).fill(0), new Array<number>(10).fill(1)], meanOfAll, { resamples: 300, random: seededRandom(5) })!;
    // Stratum sizes are fixed, so every resample's mean is exactly 0.1.
    expect(ci).toEqual({ low: 0.1, high: 0.1 });
  });

  it("refuses a level outside (0, 1) and a resample count that is not a positive integer", () => {
    expect(() => bootstrapInterval([[1]], () => 1, { resamples: 10, random: Math.random, level: 1 })).toThrow(RangeError);
    expect(() => bootstrapInterval([[1]], () => 1, { resamples: 0, random: Math.random })).toThrow(RangeError);
  });
});

describe("bootstrap checkpoints", () => {
  it("calls the checkpoint every few resamples, and a checkpoint that throws stops the bootstrap there", () => {
    let calls = 0;
    let resampled = 0;
    const ci = bootstrapInterval([[1, 2, 3]], () => ++resampled, { resamples: 100, random: seededRandom(1), checkpoint: () => void calls++ });
    expect(ci).not.toBeNull();
    expect(calls).toBe(Math.ceil(100 / 16));

    resampled = 0;
    const stop = new Error("past the deadline");
    expect(() => bootstrapInterval([[1, 2, 3]], () => ++resampled, { resamples: 1_000, random: seededRandom(1), checkpoint: () => {
      if (resampled >= 40) throw stop;
    } })).toThrow(stop);
    expect(resampled).toBe(48);
  });
});
