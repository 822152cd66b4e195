import { describe, expect, it } from "vitest";
import { figuresOf, kendallTauB, pairwiseAgreement, seededRandom, spearmanRho, type ScoredOutcome } from "../src/index.ts";

const fast = { resamples: 200 };

/** `rankings` rankings of `size` assets whose outcome follows the score plus noise. */
function noisyRankings(rankings: number, size: number, seed: number, noise = 1): ScoredOutcome[] {
  const random = seededRandom(seed);
  return Array.from({ length: rankings * size }, (_, i) => {
    const score = random() * 10;
    return { stratum: `req-${Math.floor(i / size)}`, score, rawScore: score + random() - 0.5, outcome: score / 5 + noise * random() };
  });
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

describe("figuresOf", () => {
  it("gives each figure's value as the statistics define it, rounded to 4 decimals, with an interval around it", () => {
    const points = noisyRankings(6, 8, 1);
    const f = figuresOf(points, fast);
    const scores = points.map((p) => p.score);
    const outcomes = points.map((p) => p.outcome);
    expect(f).toMatchObject({ n: 48, strata: 6, pairs: 6 * 28 });
    expect(f.spearman_rho!.value).toBe(round4(spearmanRho(scores, outcomes)!));
    expect(f.kendall_tau_b!.value).toBe(round4(kendallTauB(scores, outcomes)!));
    expect(f.pairwise_agreement!.value).toBe(round4(pairwiseAgreement(points).agreement!));
    expect(f.pairwise_agreement_raw!.value).toBe(round4(pairwiseAgreement(points.map((p) => ({ ...p, score: p.rawScore }))).agreement!));
    for (const e of [f.spearman_rho!, f.kendall_tau_b!, f.pairwise_agreement!, f.pairwise_agreement_raw!]) {
      expect(e.ci_low).toBeLessThanOrEqual(e.value);
      expect(e.ci_high).toBeGreaterThanOrEqual(e.value);
      expect(e.ci_high - e.ci_low).toBeGreaterThan(0);
      for (const x of [e.value, e.ci_low, e.ci_high]) expect(round4(x)).toBe(x);
    }
  });

  it("tells final from raw scores: refinement that fixes the order shows in pairwise_agreement only", () => {
    // In each ranking the raw score is reversed, the final score right.
    const points = Array.from({ length: 12 }, (_, i) => ({ stratum: `r${i % 3}`, score: i, rawScore: -i, outcome: i }));
    const f = figuresOf(points, fast);
    expect(f.pairwise_agreement).toEqual({ value: 1, ci_low: 1, ci_high: 1 });
    expect(f.pairwise_agreement_raw).toEqual({ value: 0, ci_low: 0, ci_high: 0 });
  });

  it("has no figure below minPoints (10 by default), but still counts n, strata and pairs", () => {
    const nine = noisyRankings(1, 9, 2);
    expect(figuresOf(nine)).toEqual({ n: 9, strata: 1, pairs: 36, spearman_rho: null, kendall_tau_b: null, pairwise_agreement: null, pairwise_agreement_raw: null });
    const ten = noisyRankings(1, 10, 2);
    expect(figuresOf(ten, fast).spearman_rho).not.toBeNull();
    expect(figuresOf(ten, { ...fast, minPoints: 11 }).spearman_rho).toBeNull();
  });

  it("has no figure without a pair inside one stratum, however many points", () => {
    // 20 rankings of one asset each: nothing to compare within a ranking.
    const singles = Array.from({ length: 20 }, (_, i) => ({ stratum: `r${i}`, score: i, rawScore: i, outcome: i }));
    expect(figuresOf(singles, fast)).toMatchObject({ n: 20, strata: 20, pairs: 0, spearman_rho: null, pairwise_agreement: null });
    // Outcomes all equal inside each ranking.
    const flat = Array.from({ length: 20 }, (_, i) => ({ stratum: `r${i % 2}`, score: i, rawScore: i, outcome: i % 2 }));
    expect(figuresOf(flat, fast)).toMatchObject({ pairs: 0, kendall_tau_b: null, pairwise_agreement_raw: null });
  });

  it("leaves a figure null where it is undefined: every score equal has no rho or tau, agreement 0.5", () => {
    const points = Array.from({ length: 12 }, (_, i) => ({ stratum: "r", score: 3, rawScore: 3, outcome: i }));
    const f = figuresOf(points, fast);
    expect(f.spearman_rho).toBeNull();
    expect(f.kendall_tau_b).toBeNull();
    expect(f.pairwise_agreement).toEqual({ value: 0.5, ci_low: 0.5, ci_high: 0.5 });
  });

  it("gives the same figures for the same points in any order, and for the same seed", () => {
    const points = noisyRankings(5, 6, 3);
    const shuffled = [...points].reverse().sort((a, b) => (a.score * 1e3) % 7 - (b.score * 1e3) % 7);
    expect(figuresOf(shuffled, fast)).toEqual(figuresOf(points, fast));
    expect(figuresOf(points, { ...fast, seed: 5 })).toEqual(figuresOf(points, { ...fast, seed: 5 }));
    expect(figuresOf(points, { ...fast, seed: 5 })).not.toEqual(figuresOf(points, { ...fast, seed: 6 }));
  });

  it("finds a real association and its interval excludes zero; pure noise's interval straddles zero", () => {
    const signal = figuresOf(noisyRankings(20, 8, 4), fast);
    expect(signal.spearman_rho!.ci_low).toBeGreaterThan(0.5);
    expect(signal.pairwise_agreement!.ci_low).toBeGreaterThan(0.6);
    const random = seededRandom(5);
    const noise = figuresOf(Array.from({ length: 160 }, (_, i) => ({ stratum: `r${i % 20}`, score: random(), rawScore: random(), outcome: random() })), fast);
    expect(noise.spearman_rho!.ci_low).toBeLessThan(0);
    expect(noise.spearman_rho!.ci_high).toBeGreaterThan(0);
    expect(noise.pairwise_agreement!.ci_low).toBeLessThan(0.5);
    expect(noise.pairwise_agreement!.ci_high).toBeGreaterThan(0.5);
  });

  it("narrows its intervals as outcomes accumulate", () => {
    const width = (rankings: number) => {
      const rho = figuresOf(noisyRankings(rankings, 8, rankings, 4), fast).spearman_rho!;
      return rho.ci_high - rho.ci_low;
    };
    expect(width(40)).toBeLessThan(width(5) * 0.6);
  });
});
