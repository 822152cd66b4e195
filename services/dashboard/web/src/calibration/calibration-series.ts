import type { CalibrationGroup, CalibrationPoint, Estimate, MetricCalibration } from "./calibration-api.ts";
import { groupLabel } from "./calibration-words.ts";

/**
 * The groups the page shows for one metric: each goal, after the pooled row when there is more
 * than one goal (with one goal the pooled row repeats it, figure for figure).
 */
export function shownGroups(metric: MetricCalibration): CalibrationGroup[] {
  return metric.goals.length > 1 ? [metric.pooled, ...metric.goals] : metric.goals.length === 1 ? metric.goals : [metric.pooled];
}

/** One bar pair of the agreement chart; recharts' ErrorBar takes the distances below and above the bar. */
export interface AgreementRow {
  label: string;
  final: number;
  finalError: [number, number];
  raw: number | null;
  rawError: [number, number];
  /** The estimates themselves, for the tooltip. */
  finalEstimate: Estimate;
  rawEstimate: Estimate | null;
}

const errorOf = (e: Estimate): [number, number] => [e.value - e.ci_low, e.ci_high - e.value];

/** Pairwise agreement (final and raw) of the groups that have figures, in the order of the cards. */
export function agreementRows(groups: CalibrationGroup[]): AgreementRow[] {
  return groups.flatMap((g) => {
    const final = g.pairwise_agreement;
    if (!final) return [];
    const raw = g.pairwise_agreement_raw;
    return [{ label: groupLabel(g.goal), final: final.value, finalError: errorOf(final), raw: raw?.value ?? null, rawError: raw ? errorOf(raw) : [0, 0], finalEstimate: final, rawEstimate: raw }];
  });
}

// Okabe–Ito: told apart with the common colour-vision deficiencies (yellow left out: too pale on white).
const GOAL_COLOURS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#1d1d1f"];

/** A goal's colour, fixed by its place among the metric's goals so that filtering keeps it. */
export const goalColour = (goal: string, goals: readonly string[]): string => GOAL_COLOURS[Math.max(0, goals.indexOf(goal)) % GOAL_COLOURS.length]!;

export interface GoalSeries {
  goal: string;
  colour: string;
  points: CalibrationPoint[];
}

/** The scatter's points split by goal, one series (and legend entry) per goal present, by name. */
export function pointsByGoal(points: CalibrationPoint[], goals: readonly string[]): GoalSeries[] {
  const present = [...new Set(points.map((p) => p.goal))].sort();
  return present.map((goal) => ({ goal, colour: goalColour(goal, goals), points: points.filter((p) => p.goal === goal) }));
}
