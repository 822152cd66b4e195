import { describe, expect, it } from "vitest";
import { GOALS, type Goal } from "@adrank/contracts";
import { ANCHOR_SETS, anchorSets } from "../src/index.ts";

// The grading words each level is written with (see anchors.ts).
const LEVEL_CUES: ReadonlyArray<RegExp> = [
  /definitely not|never|no way/,
  /probably would not|unlikely|doubt/,
  /not sure|undecided|on the fence/,
  /probably|likely|chances are/,
  /definitely|certainly|absolutely/,
];
const NEGATION = /\bnot\b|\bnever\b|\bno\b|unlikely|doubt/;

describe("anchor sets", () => {
  it("exist for exactly the contract's 13 goals", () => {
    expect(GOALS).toHaveLength(13);
    expect(Object.keys(ANCHOR_SETS).sort()).toEqual([...GOALS].sort());
  });

  it.each(GOALS)("%s has at least 2 sets of exactly 5 distinct, non-empty first-person statements", (goal) => {
    const sets = anchorSets(goal);
    expect(sets.length).toBeGreaterThanOrEqual(2);
    for (const set of sets) {
      expect(set).toHaveLength(5);
      expect(new Set(set).size).toBe(5);
      for (const statement of set) {
        expect(statement.trim().length).toBeGreaterThan(10);
        expect(statement).toMatch(/\b(I|me|my)\b/);
        // One clause per statement: a second clause would blur the level.
        expect(statement).not.toMatch(/;/);
      }
    }
    // Reference sets are different wordings, not copies.
    expect(new Set(sets.map((set) => set.join("|"))).size).toBe(sets.length);
  });

  it.each(GOALS)("%s grades its levels from most negative to most positive in plain words", (goal) => {
    for (const set of anchorSets(goal)) {
      set.forEach((statement, level) => expect(statement.toLowerCase(), `${goal} level ${level + 1}`).toMatch(LEVEL_CUES[level]!));
      expect(set[3]!.toLowerCase()).not.toMatch(NEGATION);
      expect(set[4]!.toLowerCase()).not.toMatch(NEGATION);
    }
  });

  it("are written for their goal", () => {
    const text = (goal: Goal) => anchorSets(goal).flat().join(" ").toLowerCase();
    expect(text("open-rate")).toMatch(/email|inbox/);
    expect(text("scroll-stopping")).toMatch(/scroll/);
    expect(text("logo-versatility")).toMatch(/icon/);
    expect(text("logo-versatility")).toMatch(/background/);
    expect(text("click-through-rate")).toMatch(/click|tap/);
    expect(text("trustworthiness")).toMatch(/trust|believe/);
    expect(text("product-page-conversion")).toMatch(/cart/);
    expect(text("landing-page-conversion")).toMatch(/landing page/);
    expect(text("brand-recognition")).toMatch(/remember|recall|recognise/);
  });

  it("refuses a goal outside the contract, including inherited property names, instead of rating it as another goal", () => {
    expect(() => anchorSets("brand-new-goal" as Goal)).toThrow(/unknown goal "brand-new-goal"/);
    expect(() => anchorSets("constructor" as Goal)).toThrow(/unknown goal "constructor"/);
  });

  it("hands out copies, so a caller cannot change the table", () => {
    anchorSets("engagement")[0]![0] = "changed";
    expect(anchorSets("engagement")[0]![0]).not.toBe("changed");
  });
});
