import type { z } from "zod";
import { CALIBRATION_MIN_OUTCOMES, CALIBRATION_RESAMPLES, type CalibrationGroup, type CalibrationResponse } from "@adrank/contracts";
import type { Examples } from "./named-example.ts";
import { EXAMPLE_METRIC } from "./outcomes.ts";

// What getCalibration answers for accounts at three stages: months of click-through rates,
// the two outcomes the recordOutcomes example records, and a sim set-up fed the synthetic
// fixture. Counts add up (pooled = the sum of its goals), intervals hold their value, and a
// group below the minimum carries no figure: the contract test checks each.

type Group = z.output<typeof CalibrationGroup>;

const NO_FIGURES = { enough_data: false, spearman_rho: null, kendall_tau_b: null, pairwise_agreement: null, pairwise_agreement_raw: null } as const;

// Six rankings of 7 or 8 creatives for click-through-rate, one of 7 for scroll-stopping.
const clickThroughRate: Group = {
  goal: "click-through-rate",
  n_outcomes: 46,
  n_requests: 6,
  n_pairs: 151,
  n_simulated: 0,
  impressions: 2_184_390,
  enough_data: true,
  spearman_rho: { value: 0.41, ci_low: 0.22, ci_high: 0.57 },
  kendall_tau_b: { value: 0.29, ci_low: 0.15, ci_high: 0.41 },
  pairwise_agreement: { value: 0.64, ci_low: 0.57, ci_high: 0.71 },
  pairwise_agreement_raw: { value: 0.62, ci_low: 0.55, ci_high: 0.69 },
};

const scrollStopping: Group = { goal: "scroll-stopping", n_outcomes: 7, n_requests: 1, n_pairs: 21, n_simulated: 0, impressions: 310_552, ...NO_FIGURES };

const measuredPooled: Group = {
  goal: null,
  n_outcomes: 53,
  n_requests: 7,
  n_pairs: 172,
  n_simulated: 0,
  impressions: 2_494_942,
  enough_data: true,
  spearman_rho: { value: 0.38, ci_low: 0.19, ci_high: 0.54 },
  kendall_tau_b: { value: 0.27, ci_low: 0.13, ci_high: 0.39 },
  pairwise_agreement: { value: 0.63, ci_low: 0.57, ci_high: 0.69 },
  pairwise_agreement_raw: { value: 0.61, ci_low: 0.55, ci_high: 0.68 },
};

// The recordOutcomes example's two creatives: one ranking, one pair.
const twoOutcomes: Group = { goal: "click-through-rate", n_outcomes: 2, n_requests: 1, n_pairs: 1, n_simulated: 0, impressions: 100_087, ...NO_FIGURES };

// Three campaigns of 12 synthetic creatives ranked by the offline sim model.
const simulated: Group = {
  goal: "purchase-intent",
  n_outcomes: 36,
  n_requests: 3,
  n_pairs: 198,
  n_simulated: 36,
  impressions: null,
  enough_data: true,
  spearman_rho: { value: 0.58, ci_low: 0.37, ci_high: 0.74 },
  kendall_tau_b: { value: 0.42, ci_low: 0.26, ci_high: 0.56 },
  pairwise_agreement: { value: 0.71, ci_low: 0.63, ci_high: 0.78 },
  pairwise_agreement_raw: { value: 0.71, ci_low: 0.63, ci_high: 0.78 },
};

const response = (metrics: z.output<typeof CalibrationResponse>["metrics"]): z.output<typeof CalibrationResponse> => ({ min_outcomes: CALIBRATION_MIN_OUTCOMES, resamples: CALIBRATION_RESAMPLES, metrics });

export const calibrationResponseExamples: Examples<z.output<typeof CalibrationResponse>> = {
  measured: {
    summary: "Click-through rates of seven rankings",
    description: `For click-through-rate the scores ordered creatives the way their click-through rates did in 64 % of pairs (chance is 50 %), and the interval stays above chance. scroll-stopping has ${scrollStopping.n_outcomes} outcomes, fewer than ${CALIBRATION_MIN_OUTCOMES}: no figure yet. The pooled row counts both.`,
    value: response([{ metric: EXAMPLE_METRIC, pooled: measuredPooled, goals: [clickThroughRate, scrollStopping] }]),
  },
  notEnoughData: {
    summary: "Two outcomes so far: not enough data",
    description: `After the recordOutcomes example: ${twoOutcomes.n_outcomes} outcomes of one ranking. Below ${CALIBRATION_MIN_OUTCOMES} outcomes a rank correlation says nothing, so every figure is null until more are recorded.`,
    value: response([{ metric: EXAMPLE_METRIC, pooled: { ...twoOutcomes, goal: null }, goals: [twoOutcomes] }]),
  },
  simulated: {
    summary: "Outcomes of rankings scored by the sim model",
    description: "n_simulated equals n_outcomes: the offline sim model scored every ranking. Figures like these show that the harness carries a signal from the creatives to the ranks, not that a model predicts outcomes; measure that with real providers and your own results.",
    value: response([{ metric: "synthetic_outcome", pooled: { ...simulated, goal: null }, goals: [simulated] }]),
  },
  noOutcomes: {
    summary: "No outcome recorded yet",
    value: response([]),
  },
};
