import { describe, expect, it } from "vitest";
import { findGoalTableGaps } from "../../scripts/architecture/goal-table.ts";
import { GOALS } from "../../packages/contracts/src/vocabulary.ts";
import { GOAL_TABLE } from "../../packages/ssr/src/goals/goal-table.ts";

const FILE = "packages/ssr/src/goals/goal-table.ts";

describe("the goal table check", () => {
  it("passes the table as it is", () => {
    expect(findGoalTableGaps()).toEqual([]);
  });

  it("names a goal of the contract that has no entry", () => {
    const { "open-rate": _missing, ...withoutOpenRate } = GOAL_TABLE;
    expect(findGoalTableGaps(withoutOpenRate, GOALS)).toEqual([`${FILE}: goal "open-rate" has no entry`]);
  });

  it("names each part an entry lacks: anchor sets, framing, sim profile", () => {
    const full = GOAL_TABLE["engagement"];
    const table = {
      engagement: { ...full, anchorSets: [] },
      "open-rate": { anchorSets: full.anchorSets, framing: { question: "Would you open it?", comparison: " " } },
      trustworthiness: { ...full, simProfile: { ...full.simProfile, weights: { exposure: 1 } } },
    };
    expect(findGoalTableGaps(table, ["engagement", "open-rate", "trustworthiness"])).toEqual([
      `${FILE}: goal "engagement" has no anchor sets`,
      `${FILE}: goal "open-rate" has no framing, no sim profile`,
      `${FILE}: goal "trustworthiness" has no sim profile`,
    ]);
  });

  it("names a key that is no goal of the contract", () => {
    expect(findGoalTableGaps({ ...GOAL_TABLE, virality: GOAL_TABLE["engagement"] }, GOALS)).toEqual([`${FILE}: "virality" is not a goal of packages/contracts/src/vocabulary.ts`]);
  });
});
