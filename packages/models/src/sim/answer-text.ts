import type { CopyFields } from "../types.ts";
import type { Assessment } from "./creative-quality.ts";
import { goalProfile } from "./goal-profile.ts";

export const SIMULATED_NOTE = "(Simulated response: written offline by the sim model from measured image statistics and copy heuristics, not by a language model or a real person.)";

/** The graded first-person answer per level, completed by the goal's action. */
const STANCE_BY_LEVEL: Record<1 | 2 | 3 | 4 | 5, (action: string) => string> = {
  1: (a) => `I would definitely not ${a}.`,
  2: (a) => `I probably would not ${a}.`,
  3: (a) => `I'm not sure whether I would ${a}; it could go either way.`,
  4: (a) => `I would probably ${a}.`,
  5: (a) => `I would definitely ${a}.`,
};

/** A second clause that pulls the answer towards the neighbouring level. */
const LEAN_TOWARDS: Record<1 | 2 | 3 | 4 | 5, string> = {
  1: "If anything, I lean towards definitely not.",
  2: "If anything, I lean towards probably not.",
  3: "Though honestly I'm not fully sure.",
  4: "If anything, I lean towards probably yes.",
  5: "If anything, I lean towards a definite yes.",
};

type Level = 1 | 2 | 3 | 4 | 5;
const toLevel = (x: number): Level => Math.min(5, Math.max(1, Math.round(x))) as Level;

/**
 * The stance part of a rating: the nearest level's statement, plus a leaning clause when q
 * sits between levels, so the answer moves through nine steps as q rises from 1 to 5.
 */
export function stanceSentences(q: number, goal: string): string {
  const level = toLevel(q);
  const action = goalProfile(goal).action;
  const offset = q - level;
  const parts = [STANCE_BY_LEVEL[level](action)];
  if (Math.abs(offset) >= 0.15) parts.push(LEAN_TOWARDS[toLevel(level + Math.sign(offset))]);
  return parts.join(" ");
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function joinObservations(observations: string[]): string {
  const picked = observations.slice(0, 2);
  return picked.join(", and ");
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

/**
 * A first-person rating in graded language, a note that it is simulated, then exactly two
 * closing lines `RATIONALE: …` and `PRODUCT: …`.
 */
export function ratingText(q: number, assessment: Assessment, goal: string, copy: CopyFields | null): string {
  const observations = joinObservations(assessment.observations);
  const lines = [
    stanceSentences(q, goal),
    observations ? `What stands out: ${observations}.` : "Nothing in particular stands out.",
    personaLine(assessment.harshness),
    SIMULATED_NOTE,
    `RATIONALE: ${observations ? `${sentence(observations)}, which puts this at about ${q.toFixed(1)} of 5 for ${goalProfile(goal).label}.` : `It sits at about ${q.toFixed(1)} of 5 for ${goalProfile(goal).label}.`}`,
    productLine(copy),
  ];
  return lines.filter((l): l is string => l !== null).join("\n");
}

/** A comparison of two creatives ending in exactly `WINNER: 1` or `WINNER: 2`. */
export function voteText(winner: 1 | 2, first: Assessment, second: Assessment, goal: string): string {
  const describe = (a: Assessment) => joinObservations(a.observations) || "nothing in particular stands out";
  return [
    `Comparing the two for ${goalProfile(goal).label}: in Image 1, ${describe(first)}; in Image 2, ${describe(second)}.`,
    `Image ${winner} is the stronger choice for me.`,
    SIMULATED_NOTE,
    `WINNER: ${winner}`,
  ].join("\n");
}
