import { CALIBRATION_MIN_OUTCOMES, CALIBRATION_RESAMPLES, CalibrationResponse } from "@adrank/contracts";
import { describe, expect, it } from "vitest";
import { calibrationReport, figuresOf, type CalibrationRow } from "../src/index.ts";

const fast = { resamples: 200 };

/** `size` outcomes of one ranking: the value follows the score (i), the raw score is reversed. */
function ranking(requestId: string, size: number, over: Partial<CalibrationRow> = {}): CalibrationRow[] {
  return Array.from({ length: size }, (_, i) => ({
    metric: "ctr",
    goal: "purchase-intent",
    requestId,
    score: i,
    scoreBeforeRefine: -i,
    value: i / 100 + (i % 3) / 1_000,
    impressions: null,
    simulated: false,
    ...over,
  }));
}

describe("calibrationReport", () => {
  it("answers an account without outcomes with no metric, stating the threshold and resamples", () => {
    const report = calibrationReport([]);
    expect(report).toEqual({ min_outcomes: CALIBRATION_MIN_OUTCOMES, resamples: CALIBRATION_RESAMPLES, metrics: [] });
    expect(CalibrationResponse.parse(report)).toEqual(report);
  });

  it("groups by metric then goal, both by name, with a pooled row (goal null) over every goal", () => {
    const rows = [
      ...ranking("r3", 4, { metric: "revenue", goal: "awareness" }),
      ...ranking("r1", 6, { goal: "purchase-intent" }),
      ...ranking("r2", 5, { goal: "awareness" }),
      ...ranking("r4", 3, { goal: "purchase-intent" }),
    ];
    const report = calibrationReport(rows, fast);
    expect(CalibrationResponse.parse(report)).toEqual(report);
    expect(report.metrics.map((m) => m.metric)).toEqual(["ctr", "revenue"]);
    const ctr = report.metrics[0]!;
    expect(ctr.goals.map((g) => g.goal)).toEqual(["awareness", "purchase-intent"]);
    // Pooled ctr: 6 + 5 + 3 = 14 outcomes of 3 rankings; pairs inside rankings: 15 + 10 + 3 = 28.
    expect(ctr.pooled).toMatchObject({ goal: null, n_outcomes: 14, n_requests: 3, n_pairs: 28, enough_data: true });
    // Each goal alone: awareness 5 outcomes (r2), purchase-intent 9 (r1, r4): both below 10.
    expect(ctr.goals[0]).toMatchObject({ goal: "awareness", n_outcomes: 5, n_requests: 1, n_pairs: 10, enough_data: false, spearman_rho: null });
    expect(ctr.goals[1]).toMatchObject({ goal: "purchase-intent", n_outcomes: 9, n_requests: 2, n_pairs: 18, enough_data: false });
    expect(report.metrics[1]).toMatchObject({ metric: "revenue", pooled: { n_outcomes: 4, n_requests: 1 }, goals: [{ goal: "awareness", n_outcomes: 4 }] });
  });

  it("gives the pooled row exactly the figures of its outcomes, each ranking a stratum", () => {
    const rows = [...ranking("a", 7), ...ranking("b", 6, { goal: "awareness" })];
    const pooled = calibrationReport(rows, fast).metrics[0]!.pooled;
    const f = figuresOf(
      rows.map((r) => ({ stratum: r.requestId, score: r.score, rawScore: r.scoreBeforeRefine, outcome: r.value })),
      fast,
    );
    expect(pooled).toMatchObject({ n_outcomes: f.n, n_requests: f.strata, n_pairs: f.pairs, spearman_rho: f.spearman_rho, kendall_tau_b: f.kendall_tau_b, pairwise_agreement: f.pairwise_agreement, pairwise_agreement_raw: f.pairwise_agreement_raw });
    // Final scores follow the outcome, raw scores run against it.
    expect(pooled.pairwise_agreement!.value).toBe(1);
    expect(pooled.pairwise_agreement_raw!.value).toBe(0);
  });

  it("has figures from exactly 10 outcomes: 9 is not enough data", () => {
    const nine = calibrationReport(ranking("r", 9)).metrics[0]!.pooled;
    expect(nine).toMatchObject({ n_outcomes: 9, n_pairs: 36, enough_data: false, spearman_rho: null, kendall_tau_b: null, pairwise_agreement: null, pairwise_agreement_raw: null });
    const ten = calibrationReport(ranking("r", 10)).metrics[0]!.pooled;
    expect(ten).toMatchObject({ n_outcomes: 10, n_pairs: 45, enough_data: true });
    for (const figure of [ten.spearman_rho, ten.kendall_tau_b, ten.pairwise_agreement, ten.pairwise_agreement_raw]) expect(figure).not.toBeNull();
  });

  it("has no figures without a pair to compare, however many outcomes", () => {
    // 12 rankings with one outcome each.
    const rows = Array.from({ length: 12 }, (_, i) => ranking(`r${i}`, 1)[0]!);
    expect(calibrationReport(rows, fast).metrics[0]!.pooled).toMatchObject({ n_outcomes: 12, n_requests: 12, n_pairs: 0, enough_data: false, spearman_rho: null });
  });

  it("sums impressions (null when none were sent) and counts outcomes of simulated rankings", () => {
    const rows = [...ranking("a", 3, { impressions: 1_000, simulated: true }), ...ranking("b", 2, { impressions: null }), ...ranking("c", 2, { impressions: 250, goal: "awareness" })];
    const ctr = calibrationReport(rows, fast).metrics[0]!;
    expect(ctr.pooled).toMatchObject({ impressions: 3 * 1_000 + 2 * 250, n_simulated: 3 });
    expect(ctr.goals.find((g) => g.goal === "awareness")).toMatchObject({ impressions: 500, n_simulated: 0 });
    expect(calibrationReport(ranking("d", 4), fast).metrics[0]!.pooled.impressions).toBeNull();
  });

  it("reports the threshold and resamples it used when told others", () => {
    const report = calibrationReport(ranking("r", 6), { resamples: 50, minPoints: 5 });
    expect(report).toMatchObject({ min_outcomes: 5, resamples: 50 });
    expect(report.metrics[0]!.pooled.enough_data).toBe(true);
  });

  it("gives the same report for the same outcomes in another order", () => {
    const rows = [...ranking("a", 8), ...ranking("b", 8, { goal: "awareness" }), ...ranking("c", 5, { metric: "cvr" })].map((r, i) => ({ ...r, value: r.value + ((i * 7) % 5) / 100 }));
    expect(calibrationReport([...rows].reverse(), fast)).toEqual(calibrationReport(rows, fast));
  });
});

describe("calibrationReport checkpoints", () => {
  it("passes the checkpoint to every group's bootstrap, so a deadline can stop a large report", () => {
    const rows = Array.from({ length: 20 }, (_, r) => ranking(`r${r}`, 5)).flat();
    let calls = 0;
    calibrationReport(rows, { ...fast, checkpoint: () => void calls++ });
    // Two groups (pooled and the one goal), each checked before and during its resamples.
    expect(calls).toBe(2 * (1 + Math.ceil(fast.resamples / 16)));
    const late = new Error("deadline");
    expect(() => calibrationReport(rows, { ...fast, checkpoint: () => {
      throw late;
    } })).toThrow(late);
  });
});
