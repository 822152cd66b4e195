import { CALIBRATION_MIN_OUTCOMES, CALIBRATION_RESAMPLES } from "@adrank/contracts";
import { bootstrapIntervals } from "./bootstrap-interval.ts";
import { byCodeUnits } from "./by-code-units.ts";
import { estimateOf } from "./estimate-of.ts";
import type { Figures, FiguresOptions, ScoredOutcome } from "./figures.ts";
import { groupBy } from "./group-by.ts";
import { kendallTauB } from "./kendall-tau-b.ts";
import { pairwiseAgreement } from "./pairwise-agreement.ts";
import { resampledFigures } from "./resampled-figures.ts";
import { DEFAULT_SEED, seededRandom } from "./seeded-random.ts";
import { spearmanRho } from "./spearman-rho.ts";

/**
 * Every figure of a set of scored outcomes: Spearman rho and Kendall tau-b over all points
 * (score against outcome), pairwise agreement inside each stratum (final and raw scores),
 * each with a 95 % stratified bootstrap interval. Below `minPoints` points, or without a
 * single pair to compare, every figure is null: a rank figure of a handful of points is noise
 * that reads like a finding. A single figure is also null where it is undefined (e.g. rho
 * when every score is equal).
 *
 * The points are put in a canonical order first, so the same data gives the same intervals
 * whatever order it arrives in (a database without ORDER BY, a re-sorted file).
 *
 * @example
 * const f = figuresOf(points.map((p) => ({ stratum: p.request_id, score: p.score, rawScore: p.score_before_refine, outcome: p.outcome })));
 */
export function figuresOf(points: readonly ScoredOutcome[], opts: FiguresOptions = {}): Figures {
  const resamples = opts.resamples ?? CALIBRATION_RESAMPLES;
  const seed = opts.seed ?? DEFAULT_SEED;
  const minPoints = opts.minPoints ?? CALIBRATION_MIN_OUTCOMES;
  const strata = canonicalStrata(points);
  const ordered = strata.flat();
  const scores = ordered.map((p) => p.score);
  const outcomes = ordered.map((p) => p.outcome);
  const agreement = pairwiseAgreement(ordered);
  const base = { n: ordered.length, strata: strata.length, pairs: agreement.pairs };
  if (ordered.length < minPoints || agreement.pairs === 0) {
    return { ...base, spearman_rho: null, kendall_tau_b: null, pairwise_agreement: null, pairwise_agreement_raw: null };
  }
  // The point values come from the public functions (simple-statistics for rho); only the
  // thousand resamples take the fast path, which gives the same values (tested).
  opts.checkpoint?.();
  const resampled = resampledFigures(strata);
  const values = [
    spearmanRho(scores, outcomes),
    kendallTauB(scores, outcomes),
    agreement.agreement,
    pairwiseAgreement(ordered.map((p) => ({ ...p, score: p.rawScore }))).agreement,
  ];
  // All four are read off the same resamples, so they can be compared.
  const intervals = bootstrapIntervals(resampled.strata, resampled.figures, { resamples, random: seededRandom(seed), checkpoint: opts.checkpoint });
  const [rho, tau, agreementFinal, agreementRaw] = values.map((value, k) => estimateOf(value, intervals[k] ?? null));
  return { ...base, spearman_rho: rho ?? null, kendall_tau_b: tau ?? null, pairwise_agreement: agreementFinal ?? null, pairwise_agreement_raw: agreementRaw ?? null };
}

/** Strata by name, points inside by (outcome, score, raw score). */
function canonicalStrata(points: readonly ScoredOutcome[]): ScoredOutcome[][] {
  const byName = groupBy(points, (p) => p.stratum);
  return [...byName.keys()]
    .sort(byCodeUnits)
    .map((name) => byName.get(name)!.sort((a, b) => a.outcome - b.outcome || a.score - b.score || a.rawScore - b.rawScore));
}
