import { GOALS, type Goal } from "@adrank/contracts";
import type { AnchorSet } from "./goals/goal-knowledge.ts";
import { GOAL_TABLE, goalKnowledge } from "./goals/goal-table.ts";

const anchorSetsByGoal = {} as Record<Goal, readonly AnchorSet[]>;
for (const goal of GOALS) anchorSetsByGoal[goal] = GOAL_TABLE[goal].anchorSets;

/** Each goal's reference sets, in the contract's order (how they are written: goals/goal-knowledge.ts). */
export const ANCHOR_SETS: Readonly<Record<Goal, readonly AnchorSet[]>> = anchorSetsByGoal;

/**
 * The reference sets of a goal, each 5 statements from level 1 to 5, as copies the caller
 * may change.
 *
 * @example
 * anchorSets("open-rate")[0]![4]; // "I would definitely open this email."
 */
export function anchorSets(goal: Goal): string[][] {
  return goalKnowledge(goal).anchorSets.map((set) => [...set]);
}
