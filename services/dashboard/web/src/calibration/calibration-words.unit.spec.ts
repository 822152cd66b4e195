import { describe, expect, it } from "vitest";
import { agreementVerdict, correlationText, countsText, groupLabel, intervalText, notEnoughDataText, percentText, versusChance } from "./calibration-words.ts";

describe("calibration words", () => {
  it("names the pooled row and counts what a group rests on, singular for one", () => {
    expect(groupLabel(null)).toBe("All goals");
    expect(groupLabel("engagement")).toBe("engagement");
    expect(countsText({ n_outcomes: 12, n_requests: 3, n_pairs: 40 })).toBe("12 outcomes · 3 requests · 40 pairs");
    expect(countsText({ n_outcomes: 1, n_requests: 1, n_pairs: 1 })).toBe("1 outcome · 1 request · 1 pair");
    expect(countsText({ n_outcomes: 2500, n_requests: 250, n_pairs: 0 })).toBe("2,500 outcomes · 250 requests · 0 pairs");
  });

  it("says how many outcomes are missing below the minimum, and why there are no figures without pairs", () => {
    expect(notEnoughDataText({ enough_data: false, n_outcomes: 7, n_pairs: 9 }, 10)).toBe("Not enough data: 7 of 10 outcomes needed.");
    expect(notEnoughDataText({ enough_data: false, n_outcomes: 0, n_pairs: 0 }, 10)).toBe("Not enough data: 0 of 10 outcomes needed.");
    expect(notEnoughDataText({ enough_data: false, n_outcomes: 12, n_pairs: 0 }, 10)).toBe("Not enough data: no two outcomes of the same ranking differ, so there is no pair to compare.");
    expect(notEnoughDataText({ enough_data: true, n_outcomes: 12, n_pairs: 30 }, 10)).toBeNull();
  });

  it("writes correlations to two decimals with a real minus sign and shares as whole percentages", () => {
    expect(correlationText(0.4249)).toBe("0.42");
    expect(correlationText(-0.081)).toBe("−0.08");
    expect(correlationText(1)).toBe("1.00");
    expect(percentText(0.714)).toBe("71 %");
    expect(percentText(0.5)).toBe("50 %");
    expect(intervalText({ value: 0.42, ci_low: -0.1, ci_high: 0.7 }, correlationText)).toBe("−0.10 to 0.70");
    expect(intervalText({ value: 0.71, ci_low: 0.583, ci_high: 0.829 }, percentText)).toBe("58 % to 83 %");
  });

  it("reads agreement against chance only when the whole interval is on one side of it", () => {
    expect(versusChance({ value: 0.7, ci_low: 0.55, ci_high: 0.84 }, 0.5)).toBe("above");
    expect(versusChance({ value: 0.3, ci_low: 0.18, ci_high: 0.45 }, 0.5)).toBe("below");
    expect(versusChance({ value: 0.6, ci_low: 0.42, ci_high: 0.77 }, 0.5)).toBe("unclear");
    expect(versusChance({ value: 0.6, ci_low: 0.5, ci_high: 0.77 }, 0.5)).toBe("unclear");
    expect(agreementVerdict({ value: 0.7, ci_low: 0.55, ci_high: 0.84 })).toBe("The scores ordered 70 % of pairs the way the outcomes did; the whole interval is above chance (50 %).");
    expect(agreementVerdict({ value: 0.6, ci_low: 0.42, ci_high: 0.77 })).toContain("the interval includes chance (50 %): no evidence yet either way.");
    expect(agreementVerdict({ value: 0.3, ci_low: 0.18, ci_high: 0.45 })).toContain("below chance (50 %): they ran against the outcomes.");
  });
});
