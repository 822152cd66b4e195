import { describe, expect, it } from "vitest";
import type { CalibrationGroup, CalibrationPoint, MetricCalibration } from "./calibration-api.ts";
import { agreementRows, goalColour, pointsByGoal, shownGroups } from "./calibration-series.ts";

const group = (goal: string | null, agreement: number | null): CalibrationGroup => ({
  goal,
  n_outcomes: agreement === null ? 4 : 12,
  n_requests: 2,
  n_pairs: agreement === null ? 3 : 30,
  n_simulated: 0,
  impressions: null,
  enough_data: agreement !== null,
  spearman_rho: agreement === null ? null : { value: 0.4, ci_low: 0.1, ci_high: 0.6 },
  kendall_tau_b: agreement === null ? null : { value: 0.3, ci_low: 0.05, ci_high: 0.5 },
  pairwise_agreement: agreement === null ? null : { value: agreement, ci_low: agreement - 0.1, ci_high: agreement + 0.15 },
  pairwise_agreement_raw: agreement === null ? null : { value: 0.6, ci_low: 0.45, ci_high: 0.7 },
});
const metric = (goals: CalibrationGroup[]): MetricCalibration => ({ metric: "ctr", pooled: group(null, 0.65), goals });
const point = (goal: string, score: number): CalibrationPoint => ({ request_id: "r", asset_id: `a${score}`, goal, score, score_before_refine: score, value: score / 100, simulated: false });

describe("calibration series", () => {
  it("shows the pooled row before the goals only when it pools more than one goal", () => {
    const two = metric([group("engagement", 0.7), group("purchase-intent", null)]);
    expect(shownGroups(two).map((g) => g.goal)).toEqual([null, "engagement", "purchase-intent"]);
    expect(shownGroups(metric([group("engagement", 0.7)])).map((g) => g.goal)).toEqual(["engagement"]);
  });

  it("charts agreement of the groups with figures, whiskers as distances below and above the bar", () => {
    const rows = agreementRows([group(null, 0.65), group("engagement", 0.7), group("purchase-intent", null)]);
    expect(rows.map((r) => r.label)).toEqual(["All goals", "engagement"]);
    expect(rows[1]!.final).toBe(0.7);
    expect(rows[1]!.finalError[0]).toBeCloseTo(0.1, 10);
    expect(rows[1]!.finalError[1]).toBeCloseTo(0.15, 10);
    expect(rows[1]!.raw).toBe(0.6);
    expect(rows[1]!.rawError[0]).toBeCloseTo(0.15, 10);
    expect(rows[1]!.rawError[1]).toBeCloseTo(0.1, 10);
  });

  it("splits points by goal in name order, each goal keeping its colour when others are filtered out", () => {
    const goals = ["engagement", "purchase-intent", "trustworthiness"];
    const series = pointsByGoal([point("trustworthiness", 3), point("engagement", 2), point("trustworthiness", 4)], goals);
    expect(series.map((s) => [s.goal, s.points.map((p) => p.score)])).toEqual([["engagement", [2]], ["trustworthiness", [3, 4]]]);
    expect(series[1]!.colour).toBe(goalColour("trustworthiness", goals));
    expect(pointsByGoal([point("trustworthiness", 3)], goals)[0]!.colour).toBe(series[1]!.colour);
    expect(new Set(goals.map((g) => goalColour(g, goals))).size).toBe(3);
  });
});
