import { describe, expect, it } from "vitest";
import { AUDIENCES_ANSWER } from "./audiences-answer.test-fixture.ts";
import { correlationText, noDifferenceText, reversalSentence, scoresText, sensitivityText, warningsBesideCallouts } from "./audience-words.ts";

describe("where audiences disagree, in words", () => {
  it("says a reversal as two sentences' worth, both brackets in the same order", () => {
    expect(reversalSentence(AUDIENCES_ANSWER.reversals[0]!)).toBe(
      "For Bargain hunters spring-sale.png beats summer-launch.png (3.9 vs 3.2); for Skeptics it is the other way round (2.8 vs 3.6).",
    );
  });

  it("names an image sent without an id by its place", () => {
    const r = AUDIENCES_ANSWER.reversals[0]!;
    expect(reversalSentence({ ...r, asset_a: { ...r.asset_a, asset_id: null } })).toMatch(/^For Bargain hunters image 1 beats summer-launch\.png/);
  });

  it("shows a second decimal only where one would make two different scores look equal", () => {
    expect(scoresText(3.94, 3.21)).toBe("3.9 vs 3.2");
    expect(scoresText(3.64, 3.56)).toBe("3.64 vs 3.56");
  });

  it("reads a rank correlation with a real minus sign and what its ends mean", () => {
    expect(correlationText(0.5)).toBe("+0.50");
    expect(correlationText(-1)).toBe("−1.00 (the reverse order)");
    expect(correlationText(1)).toBe("+1.00 (the same order)");
    expect(correlationText(0)).toBe("0.00");
  });

  it("says how alike two audiences rank, or why that cannot be said", () => {
    const [, bargainEveryone] = AUDIENCES_ANSWER.audience_sensitivity;
    expect(sensitivityText(bargainEveryone!)).toBe("Rank correlation +0.50 over 3 images. The largest change in one image's score is 0.80.");
    expect(sensitivityText({ assets_compared: 1, rank_correlation: null, largest_score_change: 0.2 })).toBe("No rank correlation: only 1 image scored by both. The largest change in one image's score is 0.20.");
    expect(sensitivityText({ assets_compared: 3, rank_correlation: null, largest_score_change: null })).toBe("No rank correlation: one of them scored every image alike.");
  });

  it("calls out a pair whose personas made no difference by name", () => {
    expect(noDifferenceText({ audience_a: "Skeptics", audience_b: "Everyone else" })).toMatch(/^Skeptics and Everyone else scored every image alike, within the repetitions' noise: .*tells you nothing about how the audiences differ/);
  });

  it("leaves the generic no-difference warning out only where a callout says it", () => {
    const codes = (sensitivity: typeof AUDIENCES_ANSWER.audience_sensitivity) => warningsBesideCallouts(AUDIENCES_ANSWER.summary.warnings, sensitivity).map((w) => w.code);
    expect(codes(AUDIENCES_ANSWER.audience_sensitivity)).toEqual(["simulated", "batch_not_separated"]);
    const noneFlagged = AUDIENCES_ANSWER.audience_sensitivity.map((s) => ({ ...s, persona_made_no_difference: false }));
    expect(codes(noneFlagged)).toEqual(["simulated", "persona_made_no_difference", "batch_not_separated"]);
    expect(warningsBesideCallouts(undefined, [])).toEqual([]);
  });
});
