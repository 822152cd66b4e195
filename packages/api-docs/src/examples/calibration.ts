import type { z } from "zod";
import { CALIBRATION_MIN_OUTCOMES, CALIBRATION_RESAMPLES, type CalibrationGroup, type CalibrationResponse } from "@adrank/contracts";
import type { Examples } from "./named-example.ts";
import { EXAMPLE_METRIC } from "./outcomes.ts";

// What getCalibration answers for accounts at three stages: months of click-through rates,
// the two outcomes the recordOutcomes example records, and a sim set-up fed the synthetic
// fixture. Counts add up (pooled = the sum of its goals), intervals hold their value, and a
// group below the minimum carries no figure: the contract test checks each.

type Group = z.output<typeof CalibrationGroup>;
type Bin = NonNullable<Group["reliability"]>[number];

/**
 * A reliability table from each bin's figures, edges 0.5 to 1.0 (the service's five bins):
 * [n_pairs, mean_p, observed, ci_low, ci_high], or 0 for an empty bin. The figures are what
 * reliabilityTable (@adrank/uncertainty) gives for the pairs described beside each table.
 */
const EDGES = [0.5, 0.6, 0.7, 0.8, 0.9, 1];
const reliability = (...bins: Array<[number, number, number, number, number] | 0>): Bin[] =>
  bins.map((bin, i) => {
    const edges = { p_low: EDGES[i]!, p_high: EDGES[i + 1]! };
    if (bin === 0) return { ...edges, n_pairs: 0, mean_p: null, observed: null, ci_low: null, ci_high: null };
    const [n_pairs, mean_p, observed, ci_low, ci_high] = bin;
    return { ...edges, n_pairs, mean_p, observed, ci_low, ci_high };
  });

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
  // The 40 neighbouring pairs of the six rankings (46 outcomes − 6 rankings), all answered with p_above_next.
  reliability: reliability([12, 0.5442, 0.5, 0.2538, 0.7462], [9, 0.65, 0.5556, 0.2667, 0.8112], [7, 0.7514, 0.7143, 0.3589, 0.9178], [5, 0.858, 0.8, 0.3755, 0.9638], [7, 0.9557, 0.8571, 0.4869, 0.9743]),
};

// Too few outcomes for a correlation, but its 6 neighbouring pairs still fill the reliability table.
const scrollStopping: Group = {
  goal: "scroll-stopping",
  n_outcomes: 7,
  n_requests: 1,
  n_pairs: 21,
  n_simulated: 0,
  impressions: 310_552,
  ...NO_FIGURES,
  reliability: reliability([2, 0.555, 0.5, 0.0945, 0.9055], [1, 0.64, 1, 0.2065, 1], [1, 0.73, 0, 0, 0.7935], 0, [2, 0.96, 1, 0.3424, 1]),
};

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
  // Both goals' pairs together: the bins' counts add up, their figures are over the union.
  reliability: reliability([14, 0.5457, 0.5, 0.268, 0.732], [10, 0.649, 0.6, 0.3127, 0.8318], [8, 0.7488, 0.625, 0.3057, 0.8632], [5, 0.858, 0.8, 0.3755, 0.9638], [9, 0.9567, 0.8889, 0.565, 0.9801]),
};

// The recordOutcomes example's two creatives: one ranking, one pair. The first rank example gave
// that pair p_above_next 0.9996, and the click-through rates ordered it the same way.
const twoOutcomes: Group = {
  goal: "click-through-rate",
  n_outcomes: 2,
  n_requests: 1,
  n_pairs: 1,
  n_simulated: 0,
  impressions: 100_087,
  ...NO_FIGURES,
  reliability: reliability(0, 0, 0, 0, [1, 0.9996, 1, 0.2065, 1]),
};

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
  // 33 neighbouring pairs. The sim's repetitions barely move, so most of its probabilities are
  // near 1, more than the outcomes bear out (0.90 observed against 0.99 stated).
  reliability: reliability([3, 0.55, 0.6667, 0.2077, 0.9385], [2, 0.66, 0.5, 0.0945, 0.9055], [3, 0.7567, 0.6667, 0.2077, 0.9385], [4, 0.8425, 0.75, 0.3006, 0.9544], [21, 0.9857, 0.9048, 0.7109, 0.9735]),
};

const response = (metrics: z.output<typeof CalibrationResponse>["metrics"]): z.output<typeof CalibrationResponse> => ({ min_outcomes: CALIBRATION_MIN_OUTCOMES, resamples: CALIBRATION_RESAMPLES, metrics });

export const calibrationResponseExamples: Examples<z.output<typeof CalibrationResponse>> = {
  measured: {
    summary: "Click-through rates of seven rankings",
    description: `For click-through-rate the scores ordered creatives the way their click-through rates did in 64 % of pairs (chance is 50 %), and the interval stays above chance. scroll-stopping has ${scrollStopping.n_outcomes} outcomes, fewer than ${CALIBRATION_MIN_OUTCOMES}: no figure yet. The pooled row counts both. In the reliability table each bin's mean_p lies inside the interval of its observed share: as far as 46 pairs can tell, p_above_next is calibrated for these creatives.`,
    value: response([{ metric: EXAMPLE_METRIC, pooled: measuredPooled, goals: [clickThroughRate, scrollStopping] }]),
  },
  notEnoughData: {
    summary: "Two outcomes so far: not enough data",
    description: `After the recordOutcomes example: ${twoOutcomes.n_outcomes} outcomes of one ranking. Below ${CALIBRATION_MIN_OUTCOMES} outcomes a rank correlation says nothing, so every figure is null until more are recorded.`,
    value: response([{ metric: EXAMPLE_METRIC, pooled: { ...twoOutcomes, goal: null }, goals: [twoOutcomes] }]),
  },
  simulated: {
    summary: "Outcomes of rankings scored by the sim model",
    description:
      "n_simulated equals n_outcomes: the offline sim model scored every ranking. Figures like these show that the harness carries a signal from the creatives to the ranks, not that a model predicts outcomes; measure that with real providers and your own results. The reliability table shows the sim overconfident: pairs it gave 0.99 on average came out its way 90 % of the time.",
    value: response([{ metric: "synthetic_outcome", pooled: { ...simulated, goal: null }, goals: [simulated] }]),
  },
  noOutcomes: {
    summary: "No outcome recorded yet",
    value: response([]),
  },
};
