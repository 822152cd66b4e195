import type { Goal } from "@adrank/contracts";
import type { CopyFields } from "../types.ts";
import type { Assessment } from "./creative-quality.ts";
import { goalProfile } from "./goal-profile.ts";
import { composeStance } from "./stance-wording.ts";

export const SIMULATED_NOTE = "(Simulated response: written offline by the sim model from measured image statistics and copy heuristics, not by a language model or a real person.)";

/** Share of the linear term in `targetStance`; the rest is cubic. */
const LINEAR_SHARE = 0.8;

/**
 * The stance the answer aims at, −1 (definitely not) … +1 (definitely), for q on 1..5. SSR
 * responds to stance a little more steeply near "unsure" than near the ends; the small cubic
 * term evens that out, so equal steps in q give about equal steps in the score.
 */
export function targetStance(q: number): number {
  const u = Math.min(1, Math.max(-1, (q - 3) / 2));
  return LINEAR_SHARE * u + (1 - LINEAR_SHARE) * u ** 3;
}

/**
 * The stance part of a rating: a graded verdict and reactions to the main drivers whose mix
 * follows q in small steps (stance-wording.ts). Words only: no number is ever stated.
 */
export function stanceSentences(q: number, assessment: Assessment, goal: Goal): string {
  return composeStance(targetStance(q), goalProfile(goal).action, assessment.drivers).join(" ");
}

function joinObservations(observations: readonly string[]): string {
  return observations.slice(0, 2).join(", and ");
}

function personaLine(harshness: number): string | null {
  if (harshness >= 0.2) return "As someone wary of ads, I hold them to a high bar.";
  if (harshness <= -0.1) return "I tend to give ads a fair hearing.";
  return null;
}

function productLine(copy: CopyFields | null): string {
  const named = copy?.adHeadline?.trim() || copy?.pageName?.trim();
  if (named) return `PRODUCT: Judging only from the ad copy, this promotes "${named.replace(/\s+/g, " ").slice(0, 80)}"; the simulated model cannot see what the image depicts.`;
  return "PRODUCT: The simulated model measures image statistics only and cannot identify the product shown.";
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What drives the reaction, in words: what helps and what holds the creative back. */
export function rationaleLine(assessment: Assessment, goal: Goal): string {
  const label = goalProfile(goal).label;
  const main = assessment.drivers.slice(0, 2);
  const helps = main.filter((d) => d.tone > 0).map((d) => d.text);
  const hurts = main.filter((d) => d.tone < 0).map((d) => d.text);
  if (helps.length && hurts.length) return `RATIONALE: ${sentence(helps.join(" and "))}, which helps with ${label}, while ${hurts.join(" and ")}, which holds it back.`;
  if (helps.length) return `RATIONALE: ${sentence(helps.join(" and "))}, which ${helps.length > 1 ? "both help" : "helps"} with ${label}.`;
  if (hurts.length) return `RATIONALE: ${sentence(hurts.join(" and "))}, which ${hurts.length > 1 ? "both hold" : "holds"} it back for ${label}.`;
  return `RATIONALE: Nothing in particular stands out either way for ${label}, so the overall look decides.`;
}

/**
 * A first-person rating in graded language, a note that it is simulated, then exactly two
 * closing lines `RATIONALE: …` and `PRODUCT: …`. No line states a number about quality.
 */
export function ratingText(q: number, assessment: Assessment, goal: Goal, copy: CopyFields | null): string {
  const lines = [stanceSentences(q, assessment, goal), personaLine(assessment.harshness), SIMULATED_NOTE, rationaleLine(assessment, goal), productLine(copy)];
  return lines.filter((l): l is string => l !== null).join("\n");
}

/** A comparison of two creatives in words, ending in exactly `WINNER: 1` or `WINNER: 2`. */
export function voteText(winner: 1 | 2, first: Assessment, second: Assessment, goal: Goal): string {
  const describe = (a: Assessment) => joinObservations(a.observations) || "nothing in particular stands out";
  return [
    `Comparing the two for ${goalProfile(goal).label}: in the first image, ${describe(first)}; in the second image, ${describe(second)}.`,
    `The ${winner === 1 ? "first" : "second"} image is the stronger choice for me.`,
    SIMULATED_NOTE,
    `WINNER: ${winner}`,
  ].join("\n");
}
