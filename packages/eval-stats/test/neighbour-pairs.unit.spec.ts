import { describe, expect, it } from "vitest";
import { calibrationReport, neighbourPairs, type CalibrationRow } from "../src/index.ts";

describe("neighbourPairs", () => {
  it("pairs rank r with rank r + 1 of the same ranking, says whether the outcomes agreed, and skips ties and unknowns", () => {
    const pairs = neighbourPairs([
      { requestId: "r1", rank: 1, pAboveNext: 0.9, value: 5 },
      { requestId: "r1", rank: 2, pAboveNext: 0.55, value: 7 },
      { requestId: "r1", rank: 3, pAboveNext: null, value: 1 },
      // r2: rank 2 has no outcome, so 1 and 3 are not neighbours; 3 and 4 tie.
      { requestId: "r2", rank: 1, pAboveNext: 0.8, value: 2 },
      { requestId: "r2", rank: 3, pAboveNext: 0.7, value: 4 },
      { requestId: "r2", rank: 4, pAboveNext: null, value: 4 },
      // Recorded before ranks were copied.
      { requestId: "r3", rank: null, pAboveNext: null, value: 9 },
      { requestId: "r3", rank: null, pAboveNext: null, value: 1 },
    ]);
    expect(pairs).toEqual([
      { p: 0.9, orderedRight: false },
      { p: 0.55, orderedRight: true },
    ]);
  });
});

describe("calibrationReport reliability", () => {
  it("bins the p_above_next of neighbouring pairs and shows how often the outcomes ordered them that way", () => {
    // 20 rankings of 3 assets: rank 1 over rank 2 stated at 0.85 and right in 17 of 20; rank 2 over 3 at 0.55 and right in 11 of 20.
    const rows: CalibrationRow[] = [];
    for (let i = 0; i < 20; i++) {
      const requestId = `r${i}`;
      const row = (rank: number, p: number | null, value: number): CalibrationRow => ({ metric: "ctr", goal: "engagement", requestId, score: 4 - rank, scoreBeforeRefine: 4 - rank, value, impressions: null, simulated: false, rank, pAboveNext: p });
      rows.push(row(1, 0.85, i < 17 ? 3 : 1), row(2, 0.55, 2), row(3, null, i < 11 ? 1 : 3));
    }
    const report = calibrationReport(rows, { resamples: 50 });
    const bins = report.metrics[0]!.pooled.reliability!;
    expect(bins.map((b) => [b.p_low, b.p_high, b.n_pairs])).toEqual([
      [0.5, 0.6, 20],
      [0.6, 0.7, 0],
      [0.7, 0.8, 0],
      [0.8, 0.9, 20],
      [0.9, 1, 0],
    ]);
    expect(bins[0]).toMatchObject({ mean_p: 0.55, observed: 0.55 });
    expect(bins[3]).toMatchObject({ mean_p: 0.85, observed: 0.85 });
    // Wilson 95 % for 17 of 20: 0.640–0.948.
    expect([bins[3]!.ci_low, bins[3]!.ci_high]).toEqual([0.6396, 0.9476]);
    expect(bins[1]).toEqual({ p_low: 0.6, p_high: 0.7, n_pairs: 0, mean_p: null, observed: null, ci_low: null, ci_high: null });
  });
});
