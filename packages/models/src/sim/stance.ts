import { memoizeText } from "./bounded-cache.ts";

/**
 * A small, general-English reading of how strongly a first-person statement leans towards
 * or away from acting: −1 (definitely not) … 0 (unsure) … +1 (definitely). It is what lets
 * a weight-free embedding tell graded statements apart, since "I would definitely buy" and
 * "I would definitely not buy" share almost every word.
 */

/** Words that set how sure a clause is, by strength. */
const INTENSITY: Record<string, number> = {
  definitely: 1, definite: 1, certainly: 1, absolutely: 1, surely: 1, totally: 1, completely: 1, undoubtedly: 1, positively: 1, never: 1,
  really: 0.85, strongly: 0.85, highly: 0.85,
  probably: 0.55, likely: 0.55, probable: 0.55, presumably: 0.55,
  fairly: 0.45,
  somewhat: 0.35, partly: 0.35,
  slightly: 0.15,
  might: 0.25, may: 0.25, maybe: 0.25, perhaps: 0.25, possibly: 0.25, could: 0.25,
};

/** Multi-word intensifiers, matched before single words. */
const INTENSITY_PHRASES: Array<[string[], number]> = [
  [["for", "sure"], 1],
  [["without", "a", "doubt"], 1],
  [["no", "doubt"], 1],
  [["most", "likely"], 0.7],
  [["chances", "are"], 0.55],
  [["no", "way"], 1],
];

/** Words that flip a clause's direction. */
const NEGATORS = new Set(["not", "no", "never", "nothing", "nor", "neither", "hardly", "barely"]);

/** Words that carry a direction of their own, with the strength they imply alone. */
const LEXEME: Record<string, number> = {
  unlikely: -0.55, doubt: -0.5, doubtful: -0.5, skip: -0.8, ignore: -0.8, avoid: -0.8, hate: -1, dislike: -0.7, reject: -0.8, refuse: -0.9, pass: -0.6,
  unappealing: -0.5,
  love: 0.9, adore: 0.9, excited: 0.8, eager: 0.7, keen: 0.6, interested: 0.5, tempted: 0.45, appealing: 0.5, want: 0.5, yes: 0.75, sold: 0.8,
};

/** Phrases that mean "undecided"; they settle a clause at 0 whatever else it says. */
const NEUTRAL_PHRASES: string[][] = [
  ["not", "sure"], ["not", "fully", "sure"], ["not", "entirely", "sure"], ["not", "certain"], ["not", "quite", "sure"],
  ["unsure"], ["undecided"], ["uncertain"], ["ambivalent"], ["indifferent"], ["neutral"], ["on", "the", "fence"],
  ["hard", "to", "say"], ["either", "way"], ["mixed", "feelings"], ["fifty", "fifty"], ["50", "50"], ["could", "go", "both", "ways"],
];

const FIRST_PERSON = new Set(["i", "me", "my", "myself", "we", "us", "our"]);
const MODALS = new Set(["would", "will", "shall", "should", "going", "gonna", "plan", "intend"]);
const DEFAULT_STRENGTH = 0.75;

const CONTRACTIONS: Record<string, string[]> = {
  "won't": ["will", "not"], "can't": ["can", "not"], "cannot": ["can", "not"], "shan't": ["shall", "not"],
  "i'm": ["i", "am"], "i'd": ["i", "would"], "i'll": ["i", "will"], "i've": ["i", "have"],
};

/** Words that only grade or direct a stance; the embedder leaves them to the stance block. */
const STANCE_WORDS = new Set([
  ...Object.keys(INTENSITY),
  ...INTENSITY_PHRASES.flatMap(([phrase]) => phrase).filter((w) => !["for", "a", "are"].includes(w)),
  ...NEGATORS,
  ...Object.keys(LEXEME),
  "sure", "unsure", "undecided", "uncertain", "certain", "ambivalent", "indifferent", "neutral", "fence",
]);

/** Whether a token (from `stanceTokens`) only says how strongly or which way a clause leans. */
export function isStanceWord(token: string): boolean {
  return STANCE_WORDS.has(token);
}

/** Lower-case words with negative contractions opened up ("wouldn't" → "would not"). */
export function stanceTokens(clause: string): string[] {
  const raw = clause.toLowerCase().replace(/[’‘]/g, "'").match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];
  return raw.flatMap((w) => CONTRACTIONS[w] ?? (w.endsWith("n't") ? [w.slice(0, -3), "not"] : [w]));
}

function findPhrase(tokens: string[], phrase: string[]): number {
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
    return i;
  }
  return -1;
}

/** The stance of one clause, or null when it states none. */
function readClauseStance(clause: string): number | null {
  const tokens = stanceTokens(clause);
  if (tokens.length === 0) return null;
  if (NEUTRAL_PHRASES.some((p) => findPhrase(tokens, p) >= 0)) return 0;

  let strength: number | null = null;
  for (const [phrase, s] of INTENSITY_PHRASES) if (findPhrase(tokens, phrase) >= 0) strength = Math.max(strength ?? 0, s);
  let negations = 0;
  let lexeme: number | null = null;
  let firstPerson = false;
  let modal = false;
  for (const t of tokens) {
    const s = INTENSITY[t];
    if (s !== undefined) strength = Math.max(strength ?? 0, s);
    if (NEGATORS.has(t)) negations++;
    const l = LEXEME[t];
    if (l !== undefined && (lexeme === null || Math.abs(l) > Math.abs(lexeme))) lexeme = l;
    if (FIRST_PERSON.has(t)) firstPerson = true;
    if (MODALS.has(t)) modal = true;
  }
  // "no doubt" is an intensifier, not a negation, and "without a doubt" is no doubt at all.
  if (findPhrase(tokens, ["no", "doubt"]) >= 0) negations = Math.max(0, negations - 1);
  if (lexeme === LEXEME.doubt && findPhrase(tokens, ["without", "a", "doubt"]) >= 0) lexeme = null;

  const cued = strength !== null || lexeme !== null;
  // A bare negation only states a stance in the first person: "the image is not sharp" does not.
  if (!cued && !(firstPerson && (negations > 0 || modal))) return null;
  const direction = (lexeme !== null && lexeme < 0 ? -1 : 1) * (negations % 2 === 1 ? -1 : 1);
  const magnitude = strength ?? (lexeme !== null ? Math.abs(lexeme) : DEFAULT_STRENGTH);
  return direction * magnitude;
}

/**
 * The stance of one clause, or null when it states none. Remembered: the sim's answers are
 * made of a fixed set of sentences, and each answer is read clause by clause again when embedded.
 */
export const clauseStance = memoizeText(readClauseStance, 4096);

export interface Stance {
  /** Mean of the stated clauses, −1..1; 0 when `clauses` is 0. */
  value: number;
  clauses: number;
}

/** Splits on sentence ends, semicolons and contrastive "but", then averages the clauses that state a stance. */
export function textStance(text: string): Stance {
  const clauses = text.split(/[.!?;\n]+|,\s*but\b|\bbut\b|\bthough\b|\balthough\b/i);
  let sum = 0;
  let count = 0;
  for (const clause of clauses) {
    const s = clauseStance(clause);
    if (s === null) continue;
    sum += s;
    count++;
  }
  return { value: count ? sum / count : 0, clauses: count };
}
