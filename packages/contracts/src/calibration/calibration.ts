import { z } from "zod";
import { MetricName } from "../outcomes/outcomes.ts";
import { GOALS } from "../vocabulary.ts";

// How well an account's past scores predicted the outcomes it recorded (issue 19).

/** Below this many outcomes in a group, no figure is given: a rank correlation of 6 points says nothing. */
export const CALIBRATION_MIN_OUTCOMES = 10;
/** Bootstrap resamples behind every interval. */
export const CALIBRATION_RESAMPLES = 1_000;

/**
 * A report reads at most this many outcomes, the most recently recorded (gateway default;
 * CALIBRATION_MAX_ROWS changes it): the bootstrap's work, and the memory a report takes, stay
 * bounded however many outcomes an account keeps. `truncated` says when more were left out.
 */
export const CALIBRATION_OUTCOMES_READ_MAX = 10_000;

export const CalibrationQuery = z.strictObject({
  metric: MetricName.optional().meta({ description: "Only this metric; every recorded metric when absent." }),
  goal: z.enum(GOALS).optional().meta({ description: "Only this goal; every goal when absent." }),
});
export type CalibrationQuery = z.output<typeof CalibrationQuery>;

export const Estimate = z
  .object({
    value: z.number(),
    ci_low: z.number().meta({ description: "Lower end of the 95 % bootstrap percentile interval." }),
    ci_high: z.number().meta({ description: "Upper end of the 95 % bootstrap percentile interval." }),
  })
  .meta({ description: "A figure with its 95 % bootstrap interval (outcomes resampled within each ranking)." });
export type Estimate = z.output<typeof Estimate>;

export const ReliabilityBin = z
  .object({
    p_low: z.number().meta({ description: "Lower edge of the bin of p_above_next (inclusive)." }),
    p_high: z.number().meta({ description: "Upper edge (exclusive, except 1.0)." }),
    n_pairs: z.int().min(0).meta({ description: "Neighbouring pairs of a ranking, both with an outcome that differs, whose p_above_next (folded to the upper side: p below 0.5 counts as 1 − p for the reversed order) fell in this bin." }),
    mean_p: z.number().nullable().meta({ description: "Mean probability the answers gave these pairs; null when the bin is empty." }),
    observed: z.number().nullable().meta({ description: "Share of these pairs the outcomes ordered the way the probability favoured; close to mean_p when the probabilities are calibrated. Null when empty." }),
    ci_low: z.number().nullable().meta({ description: "Wilson 95 % interval of `observed`, lower end." }),
    ci_high: z.number().nullable().meta({ description: "Wilson 95 % interval of `observed`, upper end." }),
  })
  .meta({ description: "One row of the reliability table: how often pairs given a probability in [p_low, p_high) were ordered right by the outcomes." });
export type ReliabilityBin = z.output<typeof ReliabilityBin>;

export const CalibrationGroup = z
  .object({
    goal: z.string().nullable().meta({ description: "The goal of the rankings; null for the pooled row over every goal." }),
    n_outcomes: z.int().min(0),
    n_requests: z.int().min(0).meta({ description: "Distinct rankings the outcomes belong to." }),
    n_pairs: z.int().min(0).meta({ description: "Pairs of assets of the same ranking whose outcomes differ: what pairwise agreement counts." }),
    n_simulated: z.int().min(0).meta({ description: "Outcomes whose ranking was scored by the offline sim model: figures over them measure the harness, not a model." }),
    impressions: z.int().min(0).nullable().meta({ description: "Sum of the impressions sent with the outcomes; null when none were." }),
    enough_data: z.boolean().meta({ description: `False below ${CALIBRATION_MIN_OUTCOMES} outcomes (or without a pair to compare): then every figure is null.` }),
    spearman_rho: Estimate.nullable().meta({ description: "Spearman rank correlation of score and outcome over every outcome of the group (ties get midranks)." }),
    kendall_tau_b: Estimate.nullable().meta({ description: "Kendall tau-b of score and outcome, ties corrected." }),
    pairwise_agreement: Estimate.nullable().meta({ description: "Share of pairs of the same ranking that the final score orders the way the outcomes do (a score tie counts half); 0.5 is chance." }),
    pairwise_agreement_raw: Estimate.nullable().meta({ description: "The same with the raw scores, before close-pair refinement." }),
    reliability: z
      .array(ReliabilityBin)
      .optional()
      .meta({
        description:
          "Reliability table of p_above_next: five bins from 0.5 to 1.0, every bin listed, empty ones with null figures. Only outcomes of rankings answered with p_above_next count (recorded after this version). Given whatever the group's size, unlike the figures above: read `n_pairs` before trusting a bin. Always sent by this version.",
      }),
  })
  .meta({ description: "Calibration figures of one goal (or pooled) for one metric." });
export type CalibrationGroup = z.output<typeof CalibrationGroup>;

export const MetricCalibration = z.object({
  metric: z.string(),
  pooled: CalibrationGroup,
  goals: z.array(CalibrationGroup).meta({ description: "One row per goal with outcomes, by goal name." }),
});
export type MetricCalibration = z.output<typeof MetricCalibration>;

export const CalibrationResponse = z
  .object({
    min_outcomes: z.int().meta({ description: "The least outcomes a group needs before figures are given." }),
    resamples: z.int().meta({ description: "Bootstrap resamples behind each interval." }),
    metrics: z.array(MetricCalibration).meta({ description: "One entry per recorded metric, by name; empty when no outcome is recorded." }),
    truncated: z
      .literal(true)
      .optional()
      .meta({
        description: `Present (true) only when the account holds more outcomes of the metric and goal asked for than one report reads (${CALIBRATION_OUTCOMES_READ_MAX.toLocaleString("en-US")} by default): the figures are then over the most recently recorded ones. Narrow the report with \`metric\` or \`goal\` to read older ones.`,
      }),
  })
  .meta({ description: "How well this account's past scores predicted the outcomes it recorded." });
export type CalibrationResponse = z.output<typeof CalibrationResponse>;

