import { ANCHOR_SETS, type AnchorSet } from "../src/index.ts";

// Words that only hold a sentence together; they never grade it.
const GLUE = new Set(["i", "it", "is", "am", "are", "that", "would", "to", "about", "whether", "the", "this", "there", "on", "a", "me", "my"]);
const NEGATORS = new Set(["not", "no"]);

const words = (text: string): string[] => text.toLowerCase().match(/[a-z']+/g) ?? [];

/** Per statement of a set, in order: the words the five statements do not all share. */
function levelWords(set: AnchorSet): string[][] {
  const tokens = set.map(words);
  const shared = tokens.reduce((common, t) => common.filter((w) => t.includes(w)));
  return tokens.map((t) => t.filter((w) => !shared.includes(w) && !GLUE.has(w)));
}

/**
 * The graded stance phrases of the anchor statements, derived from them: the words that set a
 * statement's level apart from the other four of its set ("definitely not", "unlikely", "on
 * the fence" → "fence"), kept when the same slot (set, level) uses them for most goals, so a
 * goal's own content words ("purchase" against "purchasing") drop out. A phrase with a
 * negator is kept whole ("probably not", "not sure", "no way"); "not" or "no" alone grade
 * nothing.
 */
export function derivedStancePhrases(): string[] {
  const goals = Object.values(ANCHOR_SETS);
  const phrases = new Set<string>();
  const setCount = Math.max(...goals.map((sets) => sets.length));
  for (let s = 0; s < setCount; s++) {
    const perGoal = goals.filter((sets) => sets[s]).map((sets) => levelWords(sets[s]!));
    for (let level = 0; level < 5; level++) {
      const counts = new Map<string, number>();
      for (const levels of perGoal) for (const w of new Set(levels[level])) counts.set(w, (counts.get(w) ?? 0) + 1);
      const recurring = (w: string) => (counts.get(w) ?? 0) * 2 > perGoal.length;
      // Statement order of the first goal whose statement uses every recurring word.
      const ordered = perGoal.map((levels) => levels[level]!.filter(recurring)).sort((a, b) => b.length - a.length)[0] ?? [];
      const phrase = [...new Set(ordered)];
      if (phrase.length === 0 || phrase.every((w) => NEGATORS.has(w))) continue;
      if (phrase.some((w) => NEGATORS.has(w))) phrases.add(phrase.join(" "));
      else for (const w of phrase) phrases.add(w);
    }
  }
  return [...phrases];
}

/** Graded answers a rating scale in words would use, beyond the anchors' own. */
export const HAND_STANCE_PHRASES = [
  "on the fence",
  "chances are",
  "somewhat",
  "very likely",
  "very unlikely",
  "extremely",
  "maybe",
  "perhaps",
  "neutral",
  "strongly agree",
  "strongly disagree",
  "might or might not",
];

/** Every anchor statement of every goal. */
export function anchorStatements(): string[] {
  return Object.values(ANCHOR_SETS).flatMap((sets) => sets.flat());
}
