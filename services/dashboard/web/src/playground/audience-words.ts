import type { AnswerWarning, AudienceSensitivity, Reversal } from "./answers.ts";
import { signed } from "./outcome-words.ts";
import { assetName } from "./score-matrix.ts";

// Where audiences agree and disagree, in words a marketer reads without the API reference open.

/** "3.9 vs 3.2": one decimal, or two where one would make the two scores look equal. */
export function scoresText(a: number, b: number): string {
  const digits = a.toFixed(1) === b.toFixed(1) ? 2 : 1;
  return `${a.toFixed(digits)} vs ${b.toFixed(digits)}`;
}

/**
 * "For Bargain hunters spring-sale.png beats summer-launch.png (3.9 vs 3.2); for Skeptics it is
 * the other way round (2.8 vs 3.6)." Both brackets give the two images in the same order.
 */
export function reversalSentence(r: Pick<Reversal, "asset_a" | "asset_b" | "prefers_a" | "prefers_b">): string {
  const a = assetName(r.asset_a);
  const b = assetName(r.asset_b);
  return (
    `For ${r.prefers_a.audience} ${a} beats ${b} (${scoresText(r.prefers_a.score_a, r.prefers_a.score_b)}); ` +
    `for ${r.prefers_b.audience} it is the other way round (${scoresText(r.prefers_b.score_a, r.prefers_b.score_b)}).`
  );
}

/** "+0.50", "−1.00 (the reverse order)", "+1.00 (the same order)": a rank correlation with what its ends mean. */
export function correlationText(r: number): string {
  const reading = r >= 0.995 ? " (the same order)" : r <= -0.995 ? " (the reverse order)" : "";
  return `${signed(r)}${reading}`;
}

/**
 * How far one pair of audiences ranks alike: "Rank correlation +0.50 over 3 images; the largest
 * change in one image's score is 0.70.", or why there is no correlation.
 */
export function sensitivityText(s: Pick<AudienceSensitivity, "assets_compared" | "rank_correlation" | "largest_score_change">): string {
  const images = `${s.assets_compared} image${s.assets_compared === 1 ? "" : "s"}`;
  const change = s.largest_score_change === null ? "" : ` The largest change in one image's score is ${s.largest_score_change.toFixed(2)}.`;
  if (s.rank_correlation === null) {
    const why = s.assets_compared < 2 ? `only ${images} scored by both` : "one of them scored every image alike";
    return `No rank correlation: ${why}.${change}`;
  }
  return `Rank correlation ${correlationText(s.rank_correlation)} over ${images}.${change}`;
}

/** The callout for a pair of audiences whose personas changed nothing the models decided. */
export function noDifferenceText(s: Pick<AudienceSensitivity, "audience_a" | "audience_b">): string {
  return (
    `${s.audience_a} and ${s.audience_b} scored every image alike, within the repetitions' noise: the personas changed what the models wrote, not what they decided. ` +
    "Comparing these two tells you nothing about how the audiences differ; describe them more sharply, or treat them as one."
  );
}

/** The answer's warnings less `persona_made_no_difference` where a callout per pair already says it: once is enough. */
export function warningsBesideCallouts(warnings: readonly AnswerWarning[] | undefined, sensitivity: readonly Pick<AudienceSensitivity, "persona_made_no_difference">[]): AnswerWarning[] {
  const calledOut = sensitivity.some((s) => s.persona_made_no_difference);
  return (warnings ?? []).filter((w) => !(calledOut && w.code === "persona_made_no_difference"));
}
