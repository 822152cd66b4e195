import type { Goal } from "@adrank/contracts";
import { goalKnowledge } from "./goals/goal-table.ts";

/** The question a generator prompt puts to the persona about one creative. */
export function goalQuestion(goal: Goal): string {
  return goalKnowledge(goal).framing.question;
}

/** Completes "Which of the two images …" in a panel vote. */
export function goalComparison(goal: Goal): string {
  return goalKnowledge(goal).framing.comparison;
}
