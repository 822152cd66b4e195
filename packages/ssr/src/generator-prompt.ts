import { GENERATORS_PER_REPETITION, REPETITIONS_PER_EVALUATION, type Goal, type ScoreLayer } from "@adrank/contracts";
import { copyText } from "./copy-text.ts";
import { fenceUntrusted, FENCE_RULE } from "./fence.ts";
import { goalQuestion } from "./goal-framing.ts";
import type { Persona } from "./persona.ts";

export interface GeneratorPromptInput {
  persona: Persona;
  layer: ScoreLayer;
  /** Normalized copy (preferred keys); never shown in the image-only layer. */
  copy: Readonly<Record<string, string>> | null;
  goal: Goal;
  /** 0-based repetition of the evaluation (0..2). */
  repetition: number;
  /** 0-based generator of the repetition's pair (0..1): its seat, see `GENERATOR_SEATS`. */
  generatorIndex: number;
}

export interface Prompt {
  system: string;
  user: string;
}

export const RATIONALE_PREFIX = "RATIONALE:";
export const PRODUCT_PREFIX = "PRODUCT:";

/** The attached image is named first so the model knows what it is looking at. */
function layerLines(layer: ScoreLayer, copy: string | null): string[] {
  switch (layer) {
    case "full-ad-package":
      return copy
        ? ["You are shown the attached image together with its ad copy, as the ad would run:", fenceUntrusted("ad copy", copy)]
        : ["You are shown the attached image, as the ad would run. No ad copy runs with it."];
    case "image-only":
      return ["You are shown only the attached image. Any ad copy that runs with it is withheld: react to the image alone."];
    case "copy-only":
      return copy
        ? ["The ad's image is blank, with nothing to see, so you react to its ad copy alone:", fenceUntrusted("ad copy", copy)]
        : ["The ad's image is blank, with nothing to see, and no ad copy runs with it."];
    default: {
      const unknown: never = layer;
      throw new RangeError(`unknown layer ${String(unknown)}`);
    }
  }
}

/**
 * The two generators of a repetition sit in different seats and put the same question to the
 * same persona from two sides: seat 0 asks for the reaction of the first few seconds, seat 1
 * for the one the person reaches after thinking it over. A repetition's pair is then two
 * readings of one person, not two draws of one reading. Indexed by `generatorIndex`.
 */
export const GENERATOR_SEATS: readonly [string, string] = [
  "Give your gut reaction: what goes through your head in the first few seconds of seeing it, before you think it over, the way you would blurt it out to a friend.",
  "Take a moment and think it through the way you would in your own life: what you notice, what you weigh against your own situation, and where you end up.",
];

// Says how to answer without offering any wording: named levels ("definitely", "not sure")
// would pull answers onto the anchor statements and turn similarity rating back into a
// Likert scale in words. The anchors' vocabulary test guards this.
const ANSWER_RULE =
  "Answer in 2 to 4 sentences, in your own words, as you would say it out loud: what you would actually do and how strongly you feel about it. Do not give a number, a score or a rating scale, and do not choose from a list of set answers.";

/**
 * The prompt of one generator sample. The persona answers in its own words (the answer is
 * embedded and compared with the goal's anchor statements, so it must not be a number and
 * the prompt never suggests their wording), from its seat's angle, then gives a rationale
 * and a product read on fixed prefixes that `parseGeneratorAnswer` reads back.
 *
 * @example
 * const { system, user } = buildGeneratorPrompt({ persona, layer: "image-only", copy: null,
 *   goal: "scroll-stopping", repetition: 0, generatorIndex: 1 });
 * // user asks the scroll-stopping question, then to think it through (seat 1)
 */
export function buildGeneratorPrompt({ persona, layer, copy, goal, repetition, generatorIndex }: GeneratorPromptInput): Prompt {
  if (!Number.isInteger(generatorIndex) || generatorIndex < 0 || generatorIndex >= GENERATORS_PER_REPETITION) {
    throw new RangeError(`generatorIndex must be 0..${GENERATORS_PER_REPETITION - 1}, got ${generatorIndex}`);
  }
  const system = [
    "You role-play one consumer reacting honestly to a piece of marketing. Stay in character and speak in the first person, as this person would talk.",
    FENCE_RULE,
    `${persona.text}\nWhat the creative is: ${persona.assetFraming}`,
  ].join("\n\n");
  const user = [
    ...layerLines(layer, layer === "image-only" ? null : copyText(copy)),
    goalQuestion(goal),
    GENERATOR_SEATS[generatorIndex as 0 | 1],
    ANSWER_RULE,
    `Then end with exactly these two lines and nothing after them:\n${RATIONALE_PREFIX} <one sentence on what in the creative drives your reaction>\n${PRODUCT_PREFIX} <one sentence on what you think is being offered>`,
    // Repetitions are independent draws of the same question; saying so discourages echoing.
    `(Independent response ${repetition + 1} of ${REPETITIONS_PER_EVALUATION}.)`,
  ].join("\n\n");
  return { system, user };
}

export interface GeneratorAnswer {
  /** The persona's reaction without the two closing lines: the text that is embedded. */
  answer: string;
  rationale: string;
  productRead: string;
}

export const MISSING_PRODUCT_READ = "The model did not say what it thinks is offered.";
export const MISSING_RATIONALE = "The model gave no rationale.";

type Field = "answer" | "rationale" | "productRead";

// Tolerates the markdown models like to add: "**RATIONALE:** …", "- PRODUCT: …", "Product read: …".
// Everything after the colon is captured and its markdown trimmed by markerValue: the pattern
// `[\s*_`]*(.*?)[\s*_`]*$` did that with a lazy capture, quadratic in a run of spaces.
const MARKER = /^[\s>*_`#-]*(rationale|product(?:[ _-]?read)?)[\s*_`]*[:：]([^\r\n]*)$/i;
const MARKUP = /[\s*_`]/;

/**
 * The text after a marker's colon without the markdown and spaces around it; null when a line
 * separator (U+2028, U+2029) is left inside it, a line the old pattern did not read as a marker.
 */
function markerValue(rest: string): string | null {
  let start = 0;
  let end = rest.length;
  while (start < end && MARKUP.test(rest[start]!)) start++;
  while (end > start && MARKUP.test(rest[end - 1]!)) end--;
  const value = rest.slice(start, end);
  return /[\u2028\u2029]/.test(value) ? null : value;
}

/**
 * Reads a generator's text back; never throws. Lines after a marker continue its field
 * until a blank line. A missing rationale falls back to the answer's first sentence, a
 * missing product read to a plain notice; repeated markers keep their first value.
 *
 * @example
 * parseGeneratorAnswer("I would probably buy it.\nRATIONALE: Clear shot.\nPRODUCT: Shoes.");
 * // { answer: "I would probably buy it.", rationale: "Clear shot.", productRead: "Shoes." }
 */
export function parseGeneratorAnswer(text: string): GeneratorAnswer {
  const parts: Record<Field, string[]> = { answer: [], rationale: [], productRead: [] };
  let current: Field | null = "answer";
  for (const line of text.split(/\r\n?|\n/)) {
    const marker = MARKER.exec(line);
    const value = marker && markerValue(marker[2]!);
    if (marker && value !== null) {
      const field: Field = marker[1]!.toLowerCase().startsWith("rationale") ? "rationale" : "productRead";
      current = parts[field].length === 0 ? field : null;
      if (current) parts[current].push(value);
    } else if (line.trim() === "") {
      if (current === "answer") parts.answer.push(line);
      current = "answer";
    } else if (current) {
      parts[current].push(line);
    }
  }
  const join = (lines: string[], separator: string) => lines.map((l) => l.trim()).filter(Boolean).join(separator).trim();
  const answer = parts.answer.join("\n").trim();
  const rationale = join(parts.rationale, " ");
  const productRead = join(parts.productRead, " ");
  return {
    answer,
    rationale: rationale || firstSentence(answer) || MISSING_RATIONALE,
    productRead: productRead || MISSING_PRODUCT_READ,
  };
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat;
  return sentence.length > 300 ? `${sentence.slice(0, 299)}…` : sentence;
}
