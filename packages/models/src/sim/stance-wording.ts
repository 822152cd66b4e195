import { BoundedCache, memoizeText } from "./bounded-cache.ts";
import { closestInTable, mixTable, type Candidate, type MixTable } from "./closest-mix.ts";
import { clauseStance } from "./stance.ts";

/**
 * The sim's answers grade their stance in words only, never in numbers. One verdict sentence
 * says where the answer stands; reactions to the main drivers (and to the creative as a
 * whole) and a closing lean shade it. The stance reader (stance.ts) averages the clauses that state a stance, so the
 * mix of these graded wordings moves the answer's stance in small steps as the quality
 * moves, instead of jumping between a few fixed statements.
 */

/** What the answer reacts to: an observation and whether it helps (+1) or hurts (−1); 0 either way. */
export interface Driver {
  text: string;
  tone: -1 | 0 | 1;
}

/** Graded first-person verdicts, most negative first, completed by the goal's action. */
const VERDICTS: ReadonlyArray<(action: string) => string> = [
  (a) => `I would definitely not ${a}.`,
  (a) => `I really would not ${a}.`,
  (a) => `I most likely would not ${a}.`,
  (a) => `I probably would not ${a}.`,
  (a) => `I doubt that I would ${a}.`,
  (a) => `I might not ${a}.`,
  (a) => `I am not sure whether I would ${a}.`,
  (a) => `I might ${a}.`,
  (a) => `I would probably ${a}.`,
  (a) => `I would most likely ${a}.`,
  (a) => `I really would ${a}.`,
  (a) => `I would definitely ${a}.`,
];

/** How strongly a reaction is felt; "" leaves the strength to the reaction word itself. */
const DEGREES = ["slightly", "somewhat", "fairly", "", "really", "completely"] as const;
const LEAN_DEGREES = ["slightly", "somewhat", "fairly", "", "strongly"] as const;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const words = (...parts: string[]) => parts.filter(Boolean).join(" ");

function reactions(driver: Driver, direction: -1 | 1): string[] {
  const word = direction > 0 ? "appealing" : "unappealing";
  return DEGREES.map((degree) => `${capitalize(driver.text)}, which I find ${words(degree, word)}.`);
}

/** Reactions to the creative as a whole: one may follow the drivers, more stand in for missing ones. */
const OVERALL: ReadonlyArray<(reaction: string) => string> = [(r) => `Overall, I find the look of it ${r}.`, (r) => `As a whole, it strikes me as ${r}.`, (r) => `At a glance, it seems ${r} to me.`];
/** Drivers the answer reacts to by name; reactions to the whole make up the rest of the slots. */
const NAMED_DRIVERS = 2;
const REACTION_SLOTS = 3;

/** The side of the target a reaction to the whole, or to a driver that pulls neither way, takes. */
type Side = -1 | 1;

/** A driver's sentence options; null leaves a reaction to the whole unsaid. */
function driverOptions(driver: Driver | number, towards: Side): Array<string | null> {
  if (typeof driver === "number") {
    const overall = OVERALL[driver % OVERALL.length]!;
    return [null, ...DEGREES.map((degree) => overall(words(degree, towards > 0 ? "appealing" : "unappealing")))];
  }
  // Stated plainly, or as a reaction in the direction the driver pulls.
  return [`${capitalize(driver.text)}.`, ...reactions(driver, driver.tone === 0 ? towards : driver.tone)];
}

function leanOptions(towards: Side): Array<string | null> {
  const answer = towards > 0 ? "yes" : "no";
  return [null, "On balance, it could go either way.", ...LEAN_DEGREES.map((degree) => `On balance, I lean ${words(degree, "towards", answer)}.`), `On balance, it is a definite ${answer} from me.`];
}

/** Prefers, among mixes that reach the target, the one whose verdict alone says most of it. */
const VERDICT_PULL = 0.02;
/** How far what is said of the whole may stray from the verdict: "probably … I lean towards yes", not "probably … a definite yes". */
const LEAN_LEEWAY = 0.25;

/** Sentences repeat across answers (the graded wordings are a fixed set), so each is read once. */
const read = memoizeText((text: string): Candidate => ({ text, stance: clauseStance(text) }), 4096);

/** The graded verdicts completed by one goal's action, read. */
const verdictsFor = memoizeText((action: string) => VERDICTS.map((v) => read(v(action))), 256);

/**
 * The averages of every mix an answer can be worded from, by what the sentence lists depend
 * on: the goal's action, the side of the target and the drivers named, then by verdict. A
 * table holds a few hundred distinct averages, about 3 KiB, and a situation rarely needs more
 * than six verdicts; the cap keeps a long-running scorer near 10 MiB while one audience's
 * images, whose observations recur, rarely miss.
 */
export const mixTables = new BoundedCache<string, Array<MixTable | undefined>>(512);

/** What can follow one verdict: reactions to the named drivers and to the whole, then a closing lean. */
function mixLists(verdict: Candidate, verdictStance: number, named: readonly Driver[], towards: Side): Array<Array<Candidate | null>> {
  const reactsTo: Array<Driver | number> = [...named];
  for (let i = 0; reactsTo.length < REACTION_SLOTS; i++) reactsTo.push(i);
  const readOrSkip = (text: string | null) => (text === null ? null : read(text));
  // Said of the whole, a reaction or lean must agree with the verdict: not "I might … Overall, I find it really appealing".
  const noFirmer = (c: Candidate | null) => c === null || Math.abs(c.stance ?? 0) <= Math.abs(verdictStance) + LEAN_LEEWAY;
  const agrees = (c: Candidate | null) => c === null || Math.abs((c.stance ?? 0) - verdictStance) <= LEAN_LEEWAY;
  const reactions = reactsTo.map((d) => {
    const options = driverOptions(d, towards).map(readOrSkip);
    return typeof d === "number" ? options.filter(noFirmer) : options;
  });
  return [[verdict], ...reactions, leanOptions(towards).map(readOrSkip).filter(agrees)];
}

/**
 * The stance sentences of an answer aiming at `target` (−1 definitely not … +1 definitely):
 * a verdict from the three graded wordings nearest the target on its side, a reaction to
 * each of the two main drivers (stated plainly, or graded in the driver's own direction),
 * optional graded reactions to the whole on the target's side (one, or more when there are
 * fewer drivers), and an optional closing lean that agrees with the verdict. Of all such
 * mixes, the one whose average stance, as the stance reader reads it, comes closest to the
 * target is chosen, so the answer's stance follows the target in steps of well under a
 * hundredth. Deterministic: of equally good mixes, the first found wins.
 */
export function composeStance(target: number, action: string, drivers: readonly Driver[]): string[] {
  const t = Math.min(1, Math.max(-1, target));
  const verdicts = verdictsFor(action)
    .map((v, i) => ({ v, i, stance: v.stance ?? 0 }))
    .filter((v) => v.stance * t >= 0)
    .sort((a, b) => Math.abs(a.stance - t) - Math.abs(b.stance - t) || a.i - b.i)
    .slice(0, 3)
    .sort((a, b) => a.i - b.i);
  const named = drivers.slice(0, NAMED_DRIVERS);
  const towards: Side = t >= 0 ? 1 : -1;
  const situation = JSON.stringify([action, towards, named.map((d) => [d.text, d.tone])]);
  let tables = mixTables.get(situation);
  if (!tables) {
    tables = [];
    mixTables.set(situation, tables);
  }

  let best: Array<Candidate | null> = [];
  let bestCost = Infinity;
  for (const { v: verdict, i, stance } of verdicts) {
    const table = (tables[i] ??= mixTable(mixLists(verdict, stance, named, towards)));
    const { mix, error } = closestInTable(table, t);
    const cost = error + VERDICT_PULL * Math.abs(stance - t);
    if (cost < bestCost) {
      best = mix;
      bestCost = cost;
    }
  }
  return best.filter((p): p is Candidate => p !== null).map((p) => p.text);
}
