import type { Goal } from "@adrank/contracts";
import { goalKnowledge, type SimGoalProfile } from "@adrank/ssr";

/** How the sim reads a goal: ssr's goal table holds it beside the goal's anchors and framing. */
export function goalProfile(goal: Goal): SimGoalProfile {
  return goalKnowledge(goal).simProfile;
}
