import { describe, expect, it } from "vitest";
import { GOALS, type Goal } from "@adrank/contracts";
import { GOAL_TABLE, goalKnowledge, goalComparison, goalQuestion } from "../src/index.ts";

describe("the goal table", () => {
  it("has an entry for exactly the contract's goals, in its order", () => {
    expect(Object.keys(GOAL_TABLE)).toEqual([...GOALS]);
  });

  it.each(GOALS)("%s has non-empty anchor sets, framing and sim profile", (goal) => {
    const { anchorSets, framing, simProfile } = GOAL_TABLE[goal];
    expect(anchorSets.length).toBeGreaterThanOrEqual(2);
    for (const set of anchorSets) {
      expect(set).toHaveLength(5);
      for (const statement of set) expect(statement.trim()).not.toBe("");
    }
    expect(framing.question.trim()).not.toBe("");
    expect(framing.comparison.trim()).not.toBe("");
    expect(simProfile.action.trim()).not.toBe("");
    expect(simProfile.label.trim()).not.toBe("");
    expect(simProfile.copyShare).toBeGreaterThan(0);
    expect(simProfile.copyShare).toBeLessThan(1);
    expect(Object.values(simProfile.weights).every((w) => w > 0)).toBe(true);
  });

  it("is what the prompts ask", () => {
    for (const goal of GOALS) {
      expect(goalQuestion(goal)).toBe(GOAL_TABLE[goal].framing.question);
      expect(goalComparison(goal)).toBe(GOAL_TABLE[goal].framing.comparison);
    }
  });

  it("refuses a goal outside the contract rather than answering for another goal", () => {
    for (const unknown of ["brand-new-goal", "constructor", "toString", ""]) {
      expect(() => goalKnowledge(unknown as Goal)).toThrow(RangeError);
      expect(() => goalQuestion(unknown as Goal)).toThrow(/unknown goal/);
      expect(() => goalComparison(unknown as Goal)).toThrow(/unknown goal/);
    }
  });
});
