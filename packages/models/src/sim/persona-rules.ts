import type { DEMOGRAPHIC_VALUES } from "@adrank/contracts";
import type { CreativeCues } from "./persona-cues.ts";

/**
 * How an audience's persona fields meet what a creative shows. Unlike the persona's
 * harshness (a shift shared by every creative), each rule moves only the creatives that carry
 * its cue, so two audiences can rank the same creatives in opposite orders, and the rationale
 * says why. A rule applies only when the persona states its field and the creative carries
 * its cue; the persona's name and description never enter.
 *
 * This is a simulation built so demos and tests show real reversals; it claims nothing about
 * how real people respond.
 */

export type PersonaRuleField = "priceSensitivity" | "adSkepticism" | "urgency" | "platformFatigue";
export type PersonaRuleName = "price-offer" | "strong-claims" | "scarcity" | "busy-layout" | "clean-layout";

/** Score points for each value of a field, in the vocabulary's order. */
type StepPoints<F extends PersonaRuleField> = Record<(typeof DEMOGRAPHIC_VALUES)[F][number], number>;

export interface PersonaRule {
  name: PersonaRuleName;
  field: PersonaRuleField;
  /** The cue the rule looks for, in words. */
  cue: string;
  /** Score points added to the creative's quality at full cue strength, by the field's value. */
  points: Readonly<Record<string, number>>;
  /** What the rationale says when the rule raises the creative, and when it lowers it; a rule that only moves one way says only that. */
  raises?: string;
  lowers?: string;
  /** The cues found for a step of this sign and how strongly they are present (0..1); null when the creative lacks the cue. */
  detect(cues: CreativeCues, sign: 1 | -1): { found: string[]; strength: number } | null;
}

const present = (found: string[]) => (found.length > 0 ? { found, strength: 1 } : null);

const PRICE_OFFER = { "very-low": -0.2, low: 0, moderate: 0.1, high: 0.3, "very-high": 0.5 } satisfies StepPoints<"priceSensitivity">;
const STRONG_CLAIMS = { "very-low": 0.2, low: 0.1, moderate: 0, high: -0.3, "very-high": -0.5 } satisfies StepPoints<"adSkepticism">;
const SCARCITY = { none: -0.2, low: 0, moderate: 0.1, high: 0.3, urgent: 0.5 } satisfies StepPoints<"urgency">;
const BUSY_LAYOUT = { low: 0, medium: -0.1, high: -0.25, "very-high": -0.4 } satisfies StepPoints<"platformFatigue">;
const CLEAN_LAYOUT = { low: 0, medium: 0, high: 0.05, "very-high": 0.1 } satisfies StepPoints<"platformFatigue">;

export const PERSONA_RULES: readonly PersonaRule[] = [
  {
    name: "price-offer",
    field: "priceSensitivity",
    cue: "a discount or a price in the copy (a discount only, for the premium-minded)",
    points: PRICE_OFFER,
    raises: "the price offer draws a price-conscious audience",
    lowers: "the bargain framing cheapens it for a premium-minded audience",
    // A premium buyer reads a bargain as cheap, but a plain price is no bargain.
    detect: (cues, sign) => present(sign > 0 ? [...cues.discount, ...cues.price] : cues.discount),
  },
  {
    name: "strong-claims",
    field: "adSkepticism",
    cue: "sweeping claims in the copy",
    points: STRONG_CLAIMS,
    raises: "the bold claims land with an audience open to advertising",
    lowers: "the sweeping claims put off a sceptical audience",
    detect: (cues) => present(cues.claims),
  },
  {
    name: "scarcity",
    field: "urgency",
    cue: "scarcity or a deadline in the copy",
    points: SCARCITY,
    raises: "the deadline spurs an audience in a hurry to buy",
    lowers: "the pressure to act fast grates on an unhurried audience",
    detect: (cues) => present(cues.scarcity),
  },
  {
    name: "busy-layout",
    field: "platformFatigue",
    cue: "a busy layout (many edges in the image)",
    points: BUSY_LAYOUT,
    lowers: "the busy layout tires an ad-weary audience",
    detect: (cues) => (cues.busyness ? { found: ["busy layout"], strength: cues.busyness } : null),
  },
  {
    name: "clean-layout",
    field: "platformFatigue",
    cue: "a clean layout (a clear subject, few edges)",
    points: CLEAN_LAYOUT,
    raises: "the clean layout is easy on an ad-weary audience",
    detect: (cues) => (cues.clean ? { found: ["clean layout"], strength: 1 } : null),
  },
];

/** One rule that moved a creative for an audience. */
export interface PersonaEffect {
  rule: PersonaRuleName;
  field: PersonaRuleField;
  /** The persona's value of the field. */
  value: string;
  /** The cues that set it off. */
  found: string[];
  /** Score points added to the creative's quality, before bounding: positive helps. */
  points: number;
  /** The reason, as the rationale words it. */
  text: string;
}

/**
 * The rules that apply to one creative for one audience, in PERSONA_RULES order. Values
 * outside a field's list, and fields the persona leaves out, apply no rule.
 */
export function personaEffects(demographics: Readonly<Record<string, string>>, cues: CreativeCues): PersonaEffect[] {
  const effects: PersonaEffect[] = [];
  for (const rule of PERSONA_RULES) {
    const value = demographics[rule.field];
    if (value === undefined || !Object.hasOwn(rule.points, value)) continue;
    const step = rule.points[value]!;
    const cue = step === 0 ? null : rule.detect(cues, step > 0 ? 1 : -1);
    if (!cue) continue;
    const points = step * cue.strength;
    const text = points > 0 ? rule.raises : rule.lowers;
    if (text === undefined) throw new Error(`persona rule ${rule.name} has no wording for ${points > 0 ? "raising" : "lowering"} a creative`);
    effects.push({ rule: rule.name, field: rule.field, value, found: cue.found, points, text });
  }
  return effects;
}

/** The sum of the effects' points: what the audience adds to the creative's quality. */
export function personaPoints(effects: readonly PersonaEffect[]): number {
  return effects.reduce((sum, e) => sum + e.points, 0);
}
