import type { Goal } from "@adrank/contracts";
import { pairTypeFraming } from "./asset-framing.ts";
import { copyText } from "./copy-text.ts";
import { fenceUntrusted, FENCE_RULE } from "./fence.ts";
import type { Prompt } from "./generator-prompt.ts";
import { goalComparison } from "./goal-framing.ts";
import type { Persona } from "./persona.ts";

export interface VotePromptInput {
  /** Who votes and where they meet the images; its `assetFraming` is not used. */
  persona: Persona;
  goal: Goal;
  /** The asset type of Image 1 and of Image 2, in presentation order; null when not stated. */
  assetTypes: readonly [string | null, string | null];
  /** Copy of the image presented first ("Image 1"), if it runs with copy. */
  copyA?: Readonly<Record<string, string>> | null | undefined;
  /** Copy of the image presented second ("Image 2"), if it runs with copy. */
  copyB?: Readonly<Record<string, string>> | null | undefined;
}

export const WINNER_PREFIX = "WINNER:";

/**
 * A blinded panel vote: the persona picks the better of two attached images for the goal.
 * The images are named only by position; no id, address or score ever reaches the voter,
 * so the vote rests on the creatives alone. Each image is framed by its own asset type (a
 * logo is judged as a logo even when the other image is an ad); where the persona meets
 * them comes from the persona, that is from the request.
 *
 * @example
 * const { system, user } = buildVotePrompt({ persona, goal: "click-through-rate", assetTypes: ["Logo", null] });
 * // user ends by asking for a last line "WINNER: 1" or "WINNER: 2"
 */
export function buildVotePrompt({ persona, goal, assetTypes, copyA, copyB }: VotePromptInput): Prompt {
  const system = [
    "You role-play one consumer comparing two pieces of marketing honestly. Stay in character and speak in the first person, as this person would talk.",
    FENCE_RULE,
    persona.text,
  ].join("\n\n");
  const first = copyText(copyA);
  const second = copyText(copyB);
  const copyLines =
    first || second
      ? [
          first ? "Image 1 runs with this ad copy:" : "Image 1 runs without ad copy.",
          ...(first ? [fenceUntrusted("ad copy of Image 1", first)] : []),
          second ? "Image 2 runs with this ad copy:" : "Image 2 runs without ad copy.",
          ...(second ? [fenceUntrusted("ad copy of Image 2", second)] : []),
        ]
      : [];
  const user = [
    "You are shown two images. Image 1 is the first attached image and Image 2 the second. The order in which they are shown says nothing about which is better.",
    pairTypeFraming(assetTypes),
    ...copyLines,
    `Which of the two images ${goalComparison(goal)}?`,
    "Think it over as this person in 1 to 3 sentences. You must choose one of the two; a tie is not allowed.",
    `Then end with a final line that is exactly "${WINNER_PREFIX} 1" or "${WINNER_PREFIX} 2", and nothing after it.`,
  ].join("\n\n");
  return { system, user };
}

export type VoteAnswer = { winner: 1 | 2 } | { invalid: string };

// A line is a verdict when it starts with "winner" and a colon, markdown allowed around it.
const VERDICT = /^[\s>*_`#-]*winner[\s*_`]*[:：](.*)$/i;
// No two adjacent parts match the same character (`#?\s*` after a class holding \s did), so a
// long run of spaces cannot be split every way before the match fails: linear, not quadratic.
const VERDICT_VALUE = /^[\s*_`"'([]*(?:image\s*)?(?:#\s*)?([12])[\s*_`"')\].!]*$/i;

/**
 * Reads a voter's text back, never guessing: exactly one choice, stated on one or more
 * `WINNER:` lines that agree. No verdict line, a verdict line naming neither 1 nor 2
 * ("WINNER: both", "WINNER: 1 or 2"), or verdict lines that disagree make the vote invalid.
 *
 * @example
 * parseVoteAnswer("Image 2 pops more.\nWINNER: 2"); // { winner: 2 }
 */
export function parseVoteAnswer(text: string): VoteAnswer {
  const choices = new Set<1 | 2>();
  for (const line of text.split(/\r\n?|\n/)) {
    const verdict = VERDICT.exec(line);
    if (!verdict) continue;
    const value = VERDICT_VALUE.exec(verdict[1]!);
    if (!value) return { invalid: `the verdict line "${line.trim().slice(0, 80)}" names neither image 1 nor image 2` };
    choices.add(value[1] === "1" ? 1 : 2);
  }
  if (choices.size === 0) return { invalid: "the response has no WINNER line" };
  if (choices.size > 1) return { invalid: "the response names both images on its WINNER lines" };
  const [winner] = choices;
  return { winner: winner! };
}
