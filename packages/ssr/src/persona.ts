import type { Goal } from "@adrank/contracts";
import { assetTypeFraming } from "./asset-framing.ts";
import { DEMOGRAPHIC_DEFAULTS, DEMOGRAPHIC_FIELDS, DEMOGRAPHIC_LABELS, describeDemographic, isDemographicField, type DemographicField } from "./demographics.ts";
import { fenceUntrusted, quoteUntrusted } from "./fence.ts";
import { resolvePlacement, type Placement } from "./placement.ts";

/** The shape of messaging's `PersonaInput`, plus an optional list of defaulted fields. */
export interface PersonaInputLike {
  audience: {
    name: string;
    description?: string | undefined;
    demographics: Readonly<Record<string, string>>;
    /**
     * Known fields whose value is a default rather than the caller's. When absent, the
     * fields missing from `demographics` are the defaulted ones. Give it when defaults were
     * applied upstream, or the persona cannot tell a default from a choice.
     */
    defaulted?: readonly string[] | undefined;
  };
  goal: Goal;
  /**
   * The type of the one creative a scoring persona judges; null when it was not stated. A
   * panel's persona has none: the vote prompt frames each image by its own type.
   */
  assetType?: string | null | undefined;
  platform: string | null;
  campaignType: string | null;
}

export interface Persona {
  /** The persona description, untrusted audience text fenced. It goes into system prompts. */
  text: string;
  /** Demographics with defaults applied. */
  demographics: Record<string, string>;
  /** Known fields filled from DEMOGRAPHIC_DEFAULTS, in field order. */
  defaulted: DemographicField[];
  placement: Placement;
  /**
   * What the judged creative is (from `assetType`, neutral when not stated). It is not part
   * of `text`: the generator prompt states it for its one creative, while a vote states each
   * image's own type instead.
   */
  assetFraming: string;
}

export const DEFAULT_MARK = "(default: not specified by the advertiser)";

/**
 * The simulated respondent: who they are (defaults applied and marked as defaults) and where
 * they meet the creative. What the creative is stays out of `text` (see `assetFraming`).
 *
 * @example
 * buildPersona({ audience: { name: "Trail runners", demographics: { ageRange: "45-54" } },
 *   goal: "purchase-intent", assetType: "Logo", platform: null, campaignType: "reels" }).text;
 */
export function buildPersona(input: PersonaInputLike): Persona {
  const given = input.audience.demographics;
  const defaultedSet = new Set(input.audience.defaulted ?? DEMOGRAPHIC_FIELDS.filter((field) => !Object.hasOwn(given, field)));
  const defaulted = DEMOGRAPHIC_FIELDS.filter((field) => defaultedSet.has(field));
  const demographics: Record<string, string> = { ...DEMOGRAPHIC_DEFAULTS, ...given };

  const traits = DEMOGRAPHIC_FIELDS.map((field) => {
    const value = demographics[field]!;
    const sentence = describeDemographic(field, value) ?? `Your ${DEMOGRAPHIC_LABELS[field]}, as the advertiser gives it: ${quoteUntrusted(value)}.`;
    return `- ${sentence}${defaultedSet.has(field) ? ` ${DEFAULT_MARK}` : ""}`;
  });
  const extras = Object.entries(given).filter(([key]) => !isDemographicField(key));
  const placement = resolvePlacement(input.platform, input.campaignType);
  const assetFraming = assetTypeFraming(input.assetType);
  const description = input.audience.description?.trim();

  const text = [
    "You are one member of this audience, as the advertiser names it:",
    fenceUntrusted("audience name", input.audience.name),
    ...(description ? ["The advertiser describes the audience's situation as:", fenceUntrusted("audience description", description)] : []),
    `About you (lines marked ${DEFAULT_MARK} are assumptions, not facts given by the advertiser):`,
    ...traits,
    ...(extras.length ? ["Other traits the advertiser gives:", fenceUntrusted("other traits", extras.map(([key, value]) => `${key}: ${value}`).join("\n"))] : []),
    `Where you meet the creative: ${placement.framing}`,
  ].join("\n");
  return { text, demographics, defaulted, placement, assetFraming };
}
