import { describe, expect, it } from "vitest";
import { kendallTauB, pairwiseAgreement, seededRandom, spearmanRho, type ScoredOutcome } from "../src/index.ts";
import { resampledFigures } from "../src/resampled-figures.ts";

// The bootstrap's fast path reads a resample as draw counts over once-sorted points. It must
// give exactly what the public functions give on the resampled points themselves.

function tiedStrata(seed: number): ScoredOutcome[][] {
  const random = seededRandom(seed);
  return Array.from({ length: 1 + Math.floor(random() * 6) }, (_, s) =>
    // Mostly ranking-sized strata (pairs listed once), some over 32 (pairs tallied): both paths.
    Array.from({ length: 1 + Math.floor(random() * (random() < 0.25 ? 70 : 12)) }, () => {
      // Few levels: ties in score, raw score and outcome, and joint ties.
      const score = Math.floor(random() * 4);
      return { stratum: `r${s}`, score, rawScore: Math.floor(random() * 3), outcome: Math.floor(random() * 3) + (random() < 0.6 ? score : 0) };
    }),
  );
}

describe("resampledFigures", () => {
  it("equals spearmanRho, kendallTauB and pairwiseAgreement on the resampled points", () => {
    const random = seededRandom(99);
    let compared = 0;
    for (let run = 0; run < 150; run++) {
      const strata = tiedStrata(run);
      const fast = resampledFigures(strata);
      const points = strata.flat();
      for (let r = 0; r < 5; r++) {
        const sample = fast.strata.map((s) => s.map(() => s[Math.floor(random() * s.length)]!));
        const drawn = sample.flat().map((i) => points[i]!);
        const scores = drawn.map((p) => p.score);
        const outcomes = drawn.map((p) => p.outcome);
        const expectNear = (got: number | null, expected: number | null) => {
          if (expected === null) expect(got).toBeNull();
          else {
            expect(got).toBeCloseTo(expected, 12);
            compared++;
          }
        };
        const [rho, tau, agreement, agreementRaw] = fast.figures(sample);
        expectNear(rho, spearmanRho(scores, outcomes));
        expectNear(tau, kendallTauB(scores, outcomes));
        expectNear(agreement, pairwiseAgreement(drawn).agreement);
        expectNear(agreementRaw, pairwiseAgreement(drawn.map((p) => ({ ...p, score: p.rawScore }))).agreement);
      }
    }
    // Most comparisons were of numbers, not of two nulls.
    expect(compared).toBeGreaterThan(1_500);
  });

  it("on the sample of every point once, equals the figures of the points", () => {
    const strata = tiedStrata(3);
    const fast = resampledFigures(strata);
    const points = strata.flat();
    expect(fast.strata.flat()).toEqual(points.map((_, i) => i));
    const [rho, tau, agreement] = fast.figures(fast.strata);
    expect(rho).toBeCloseTo(spearmanRho(points.map((p) => p.score), points.map((p) => p.outcome))!, 12);
    expect(tau).toBeCloseTo(kendallTauB(points.map((p) => p.score), points.map((p) => p.outcome))!, 12);
    expect(agreement).toBeCloseTo(pairwiseAgreement(points).agreement!, 12);
  });
});
