import { describe, expect, it } from "vitest";
import { createSimEmbedder, textStance } from "@adrank/models";
import { ANCHOR_SETS, anchorSets, meanPairwiseCosine } from "@adrank/ssr";

// The offline sim must tell the five levels of every reference set apart, or its scores
// flatten towards 3 for that wording. The scorer warns from 0.65; the sets are written to
// stay well below, so 0.5 here catches a wording the sim reads as one blur long before that.

type Goal = keyof typeof ANCHOR_SETS;
const GOALS = Object.keys(ANCHOR_SETS) as Goal[];
const SEPARABILITY_LIMIT = 0.5;
const embedder = createSimEmbedder();

describe("the sim separates every reference set's levels", () => {
  it.each(GOALS)("%s has the six reference sets of the method", (goal) => {
    expect(anchorSets(goal)).toHaveLength(6);
  });

  it.each(GOALS)("%s: each set's five anchors are far apart in the sim's embedding", async (goal) => {
    for (const [s, set] of anchorSets(goal).entries()) {
      const similarity = meanPairwiseCosine(await embedder.embed(set));
      expect(similarity, `${goal} set ${s + 1}`).toBeLessThan(SEPARABILITY_LIMIT);
    }
  });

  it.each(GOALS)("%s: the sim reads each set's five anchors as five rising stances", (goal) => {
    for (const [s, set] of anchorSets(goal).entries()) {
      const stances = set.map((statement) => textStance(statement).value);
      for (let level = 1; level < 5; level++) expect(stances[level]!, `${goal} set ${s + 1}: ${stances.join(" ")}`).toBeGreaterThan(stances[level - 1]!);
    }
  });
});
