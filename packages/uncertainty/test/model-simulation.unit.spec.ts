// Draws from the models the probabilities assume and checks that they behave as stated.
// Every draw is seeded, so each check passes or fails the same way on every run; the
// tolerances are what an honest implementation needs at 1,000 draws, tight enough that
// the mistakes named next to them would fail.
import { describe, expect, it } from "vitest";
import { batchSeparation, panelPreferenceProbability, reliabilityTable, repetitionNoise, scoreOrderProbability, winProbability } from "../src/index.ts";
import { mulberry32 } from "./mulberry32.ts";
import { standardNormal } from "./standard-normal.ts";

const DRAWS = 1_000;
const REPETITIONS = 3;

/** One batch: REPETITIONS scores per asset, each its true mean plus N(0, σ²) noise. */
function drawBatch(normal: () => number, trueMeans: readonly number[], sigma = 1): number[][] {
  return trueMeans.map((mean) => Array.from({ length: REPETITIONS }, () => mean + sigma * normal()));
}

const meanOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const shareOf = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length / items.length;

describe("scoreOrderProbability under its model", () => {
  it("is Uniform(0, 1) when the compared pair has equal true means", () => {
    // Under equal means the t statistic is exactly Student t with the pooled df (8 here),
    // so p = T_8(t) is exactly uniform; at 1,000 draws the share below 0.1 has standard
    // error 0.0095 and the share below 0.5 0.016, so both bands are about ±4 standard errors.
    const normal = standardNormal(mulberry32(11));
    const ps = Array.from({ length: DRAWS }, () => {
      const batch = drawBatch(normal, [5, 5, 2, 9]);
      return scoreOrderProbability(meanOf(batch[0]!), meanOf(batch[1]!), repetitionNoise(batch), REPETITIONS)!;
    });
    const belowTenth = shareOf(ps, (p) => p < 0.1);
    const belowHalf = shareOf(ps, (p) => p < 0.5);
    expect(belowTenth).toBeGreaterThanOrEqual(0.06);
    expect(belowTenth).toBeLessThanOrEqual(0.14);
    expect(belowHalf).toBeGreaterThanOrEqual(0.44);
    expect(belowHalf).toBeLessThanOrEqual(0.56);
  });

  it("is calibrated: the favoured asset of a pair is truly better about as often as p says", () => {
    // A posterior is calibrated over a prior, not at one fixed difference: at a fixed true
    // gap δ the truly better asset wins the observed order with probability Φ(δ/(σ√(2/n))),
    // while the average p is pulled toward ½ (about 0.76 against 0.84 at δ = σ√(2/n)).
    // So true means are drawn from a wide prior, Uniform(0, 6σ), and every pair of the
    // batch is read with its favoured side: p_fav = max(p, 1 − p), right = the favoured asset
    // is truly better. Calibration says mean(right) ≈ mean(p_fav).
    //
    // Tolerance: the flat prior behind p and the bounded Uniform(0, 6σ) here differ a little
    // (with σ known to the simulation but estimated by p); over 200,000 batches the gap is
    // 0.001. The six pairs of one batch share its noise, so the standard error comes from the
    // 1,000 batch averages (about 0.0036); allowing 3 of them plus the 0.002 bias gives
    // ≈ 0.013. With these seeds, forgetting √(2/n) (gap +0.021), using √(1/n) (−0.026), the
    // pair's own 2 df instead of the pooled 8 (+0.032), or an sd 20 % too large (+0.019) or
    // too small (−0.014) all land outside it.
    const normal = standardNormal(mulberry32(23));
    const uniform = mulberry32(29);
    const batchGaps: number[] = [];
    for (let draw = 0; draw < DRAWS; draw++) {
      const trueMeans = Array.from({ length: 4 }, () => 6 * uniform());
      const batch = drawBatch(normal, trueMeans);
      const noise = repetitionNoise(batch);
      const gaps: number[] = [];
      for (let upper = 0; upper < 4; upper++) {
        for (let lower = upper + 1; lower < 4; lower++) {
          const p = scoreOrderProbability(meanOf(batch[upper]!), meanOf(batch[lower]!), noise, REPETITIONS)!;
          const favoursUpper = p > 0.5;
          const right = favoursUpper === trueMeans[upper]! > trueMeans[lower]!;
          gaps.push((right ? 1 : 0) - Math.max(p, 1 - p));
        }
      }
      batchGaps.push(meanOf(gaps));
    }
    const gap = meanOf(batchGaps);
    const spread = Math.sqrt(meanOf(batchGaps.map((g) => (g - gap) ** 2)));
    const standardError = spread / Math.sqrt(DRAWS);
    expect(standardError).toBeLessThan(0.005);
    expect(Math.abs(gap)).toBeLessThanOrEqual(3 * standardError + 0.002);
  });
});

describe("panelPreferenceProbability and winProbability under their model", () => {
  // θ ~ Uniform(0, 1), the share of voters preferring the first asset; 5 Bernoulli(θ) votes.
  const uniform = mulberry32(37);
  const draws = Array.from({ length: DRAWS }, () => {
    const theta = uniform();
    let votesFor = 0;
    for (let voter = 0; voter < 5; voter++) if (uniform() < theta) votesFor += 1;
    return { theta, votesFor, win: winProbability(votesFor, 5 - votesFor)! };
  });

  it("gives a 4-1 split the right chance that most voters prefer the winner", () => {
    // Under the uniform prior every count 0..5 is equally likely, so about 1,000/6 ≈ 167
    // draws split 4-1. The share with θ > ½ among them has standard error
    // √(0.8906·0.1094/count) ≈ 0.024; the tolerance is 3 of those, from the actual count.
    // Reading 4-1 as P(θ > 0.8), or dropping the prior (p = P(Bin(5, ½) ≤ 4) = 31/32), misses it.
    const fourToOne = draws.filter((d) => d.votesFor === 4);
    const expected = panelPreferenceProbability(4, 1);
    expect(expected).toBeCloseTo(0.890625, 12);
    expect(fourToOne.length).toBeGreaterThan(120);
    const share = shareOf(fourToOne, (d) => d.theta > 0.5);
    const tolerance = 3 * Math.sqrt((expected * (1 - expected)) / fourToOne.length);
    expect(Math.abs(share - expected)).toBeLessThanOrEqual(tolerance);
  });

  it("covers θ with its 95 % interval in 93–97 % of draws", () => {
    // A credible interval drawn from the true prior covers 95 % exactly; ±2 points is about
    // ±3 standard errors (0.0069) at 1,000 draws. A 90 % interval (≈ 0.90) falls outside.
    const coverage = shareOf(draws, (d) => d.win.ci_low <= d.theta && d.theta <= d.win.ci_high);
    expect(coverage).toBeGreaterThanOrEqual(0.93);
    expect(coverage).toBeLessThanOrEqual(0.97);
  });
});

describe("batchSeparation under its model", () => {
  it("rejects equal means at about its 5 % level", () => {
    // Under equal means P(pValue < 0.05) is exactly 0.05; [0.03, 0.07] is ±2.9 standard errors.
    const normal = standardNormal(mulberry32(41));
    const pValues = Array.from({ length: DRAWS }, () => batchSeparation(drawBatch(normal, [4, 4, 4, 4]))!.pValue);
    const rejected = shareOf(pValues, (p) => p < 0.05);
    expect(rejected).toBeGreaterThanOrEqual(0.03);
    expect(rejected).toBeLessThanOrEqual(0.07);
  });

  it("separates a batch whose means stand 3σ apart more than 90 % of the time", () => {
    // Two assets 3σ above the other two: noncentrality 3·4·1.5² = 27 on (3, 8) df, power
    // ≈ 0.936 over 100,000 draws (standard error 0.008 at 1,000). Means evenly spread from 0
    // to 3σ would have power only ≈ 0.72, so that spread is not the one tested here.
    const normal = standardNormal(mulberry32(43));
    const pValues = Array.from({ length: DRAWS }, () => batchSeparation(drawBatch(normal, [0, 0, 3, 3]))!.pValue);
    expect(shareOf(pValues, (p) => p < 0.05)).toBeGreaterThan(0.9);
  });
});

describe("reliabilityTable on calibrated and overconfident probabilities", () => {
  // p ~ Uniform(0, 1), so half the pairs are folded; after folding each bin holds about 200.
  function pairs(seed: number, truth: (p: number) => number) {
    const uniform = mulberry32(seed);
    return Array.from({ length: DRAWS }, () => {
      const p = uniform();
      return { p, orderedRight: uniform() < truth(p) };
    });
  }

  it("finds the mean stated p inside the Wilson interval of the observed share in most bins", () => {
    // Each interval covers its bin's true rate about 95 % of the time, so 4 of 5 bins is the
    // bar; a table that forgot to negate the outcome when folding would miss in every bin.
    const table = reliabilityTable(pairs(47, (p) => p));
    expect(table.every((bin) => bin.n_pairs > 150)).toBe(true);
    const inside = table.filter((bin) => bin.mean_p! >= bin.ci_low! && bin.mean_p! <= bin.ci_high!);
    expect(inside.length).toBeGreaterThanOrEqual(4);
  });

  it("exposes an overconfident p: the true chance is only halfway between ½ and p", () => {
    const table = reliabilityTable(pairs(53, (p) => 0.5 + (p - 0.5) / 2));
    const outside = table.filter((bin) => bin.mean_p! < bin.ci_low! || bin.mean_p! > bin.ci_high!);
    expect(outside.length).toBeGreaterThanOrEqual(3);
  });
});
