import type { CalibrationGroup, CalibrationResponse, MetricCalibration } from "@adrank/contracts";
import { CALIBRATION_MIN_OUTCOMES, CALIBRATION_RESAMPLES } from "@adrank/contracts";
import { byCodeUnits } from "./by-code-units.ts";
import type { FiguresOptions } from "./figures.ts";
import { figuresOf } from "./figures-of.ts";
import { groupBy } from "./group-by.ts";
import { reliabilityTable, type ReliabilityBin } from "@adrank/uncertainty";
import { neighbourPairs } from "./neighbour-pairs.ts";

/**
 * One recorded outcome with what was copied from its ranking at record time. The outcome
 * repository's record has these fields, so its rows can be passed as they are.
 */
export interface CalibrationRow {
  metric: string;
  goal: string;
  requestId: string;
  score: number;
  scoreBeforeRefine: number;
  value: number;
  impressions: number | null;
  simulated: boolean;
  /** The asset's rank and p_above_next in its ranking; null or absent for outcomes recorded before they were copied. */
  rank?: number | null;
  pAboveNext?: number | null;
}

/**
 * GET /api/v1/calibration's answer from an account's outcomes: per metric (by name), a pooled
 * row over every goal and one row per goal (by name). Each ranking (request) is a stratum:
 * pairs are compared inside a ranking and the bootstrap resamples inside each.
 *
 * @example
 * const report = calibrationReport(await repos.outcomes.listForAccount(accountId, filter));
 */
export function calibrationReport(rows: readonly CalibrationRow[], opts: FiguresOptions = {}): CalibrationResponse {
  const minOutcomes = opts.minPoints ?? CALIBRATION_MIN_OUTCOMES;
  const resamples = opts.resamples ?? CALIBRATION_RESAMPLES;
  const figureOpts: FiguresOptions = { ...opts, minPoints: minOutcomes, resamples };
  const metrics: MetricCalibration[] = [...groupBy(rows, (r) => r.metric)]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([metric, ofMetric]) => ({
      metric,
      pooled: groupOf(null, ofMetric, figureOpts),
      goals: [...groupBy(ofMetric, (r) => r.goal)].sort(([a], [b]) => byCodeUnits(a, b)).map(([goal, ofGoal]) => groupOf(goal, ofGoal, figureOpts)),
    }));
  return { min_outcomes: minOutcomes, resamples, metrics };
}

function groupOf(goal: string | null, rows: readonly CalibrationRow[], opts: FiguresOptions): CalibrationGroup {
  const f = figuresOf(
    rows.map((r) => ({ stratum: r.requestId, score: r.score, rawScore: r.scoreBeforeRefine, outcome: r.value })),
    opts,
  );
  let impressions: number | null = null;
  let simulated = 0;
  for (const r of rows) {
    if (r.impressions !== null) impressions = (impressions ?? 0) + r.impressions;
    if (r.simulated) simulated++;
  }
  return {
    goal,
    n_outcomes: f.n,
    n_requests: f.strata,
    n_pairs: f.pairs,
    n_simulated: simulated,
    impressions,
    enough_data: f.n >= (opts.minPoints ?? CALIBRATION_MIN_OUTCOMES) && f.pairs > 0,
    spearman_rho: f.spearman_rho,
    kendall_tau_b: f.kendall_tau_b,
    pairwise_agreement: f.pairwise_agreement,
    pairwise_agreement_raw: f.pairwise_agreement_raw,
    reliability: reliabilityTable(neighbourPairs(rows.map((r) => ({ requestId: r.requestId, rank: r.rank ?? null, pAboveNext: r.pAboveNext ?? null, value: r.value })))).map(rounded),
  };
}

const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000) / 10_000);

/** A reliability bin with its figures rounded for reading; counts and edges stay exact. */
function rounded(bin: ReliabilityBin): ReliabilityBin {
  return { ...bin, mean_p: round4(bin.mean_p), observed: round4(bin.observed), ci_low: round4(bin.ci_low), ci_high: round4(bin.ci_high) };
}
