import type { CalibrationGroup, CalibrationResponse, Estimate, MetricCalibration } from "@adrank/contracts";

// The contract's own types, imported as types only: the bundle stays free of zod.
export type { CalibrationGroup, CalibrationResponse, Estimate, MetricCalibration };

/** One recorded outcome as the scatter plot draws it: its score in the ranking and what it then did. */
export interface CalibrationPoint {
  request_id: string;
  asset_id: string;
  goal: string;
  score: number;
  score_before_refine: number;
  value: number;
  simulated: boolean;
}

/** What /console/api/calibration answers: one metric's figures (GET /api/v1/calibration's) and its outcomes. */
export interface CalibrationPageData {
  /** Every metric the account recorded, by name. */
  metrics: string[];
  /** The metric shown; null when nothing is recorded. */
  metric: string | null;
  /** The goals with outcomes of that metric, by name. */
  goals: string[];
  /** The goal the figures are limited to; null for every goal. */
  goal: string | null;
  report: CalibrationResponse;
  /** The most recently recorded outcomes, at most a page's worth. */
  points: CalibrationPoint[];
  points_total: number;
  points_truncated: boolean;
}
