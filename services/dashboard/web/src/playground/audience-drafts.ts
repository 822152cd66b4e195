import type { Audience } from "../api.ts";

/** One audience as the playground's form holds it: a saved one picked, or one described here. */
export interface AudienceDraft {
  /** Stable within the form, so removing one audience keeps the others' inputs where they are. */
  key: number;
  /** A saved audience's id, or "" to describe one inline. */
  savedId: string;
  name: string;
  description: string;
  /** Demographic field → value; "" is "not set". */
  demographics: Record<string, string>;
}

/** The API's `audiences` limit for a ranking across audiences (LIMITS.audiencesMax), restated: the bundle stays free of zod. */
export const MAX_AUDIENCES = 5;

/** The name a single inline audience gets when the field is left empty, as before audiences side by side. */
export const DEFAULT_AUDIENCE_NAME = "General audience";

export const newAudienceDraft = (key: number, name = ""): AudienceDraft => ({ key, savedId: "", name, description: "", demographics: {} });

/**
 * The contract's `audienceNameKey`, restated for the bundle: names compare without regard to
 * case, surrounding spaces or Unicode form. A unit test holds the two together.
 */
export const audienceNameKey = (name: string): string => name.normalize("NFC").trim().toLowerCase();

/** The name a draft stands for: the saved audience's, or the one typed. */
export function draftName(draft: AudienceDraft, saved: readonly Audience[]): string {
  return draft.savedId ? (saved.find((a) => a.id === draft.savedId)?.name ?? "") : draft.name;
}

/** The demographics actually set, or nothing when none is. */
function setDemographics(draft: AudienceDraft): Record<string, string> | undefined {
  const set = Object.entries(draft.demographics).filter(([, v]) => v);
  return set.length > 0 ? Object.fromEntries(set) : undefined;
}

/** An inline audience as the API takes it: name, and description and demographics only when given. */
function inlineAudience(draft: AudienceDraft, fallbackName: string) {
  const demographics = setDemographics(draft);
  return {
    name: draft.name || fallbackName,
    ...(draft.description ? { description: draft.description } : {}),
    ...(demographics ? { demographics } : {}),
  };
}

/** One item of a ranking across audiences' `audiences`: `{ audience_id }` or the inline audience. */
export function audienceItem(draft: AudienceDraft) {
  return draft.savedId ? { audience_id: draft.savedId } : inlineAudience(draft, "");
}

/** The audience fields of a single ranking or panel: `audience_id`, or `audience` (named "General audience" when left empty). */
export function singleAudienceFields(draft: AudienceDraft) {
  return draft.savedId ? { audience_id: draft.savedId } : { audience: inlineAudience(draft, DEFAULT_AUDIENCE_NAME) };
}

/** For each draft, the index of an earlier one with the same name (by the contract's rule), or null. */
export function duplicateOf(drafts: readonly AudienceDraft[], saved: readonly Audience[]): Array<number | null> {
  const first = new Map<string, number>();
  return drafts.map((draft, i) => {
    const key = audienceNameKey(draftName(draft, saved));
    if (!key) return null;
    const earlier = first.get(key);
    if (earlier !== undefined) return earlier;
    first.set(key, i);
    return null;
  });
}

/**
 * Why several audiences cannot be sent as they are, in one sentence (audiences counted from 1,
 * as the form shows them), or null when they can. One audience is always fine: it is a plain
 * ranking, whose empty name means "General audience".
 */
export function audiencesProblem(drafts: readonly AudienceDraft[], saved: readonly Audience[]): string | null {
  if (drafts.length < 2) return null;
  const unnamed = drafts.findIndex((d) => !d.savedId && !d.name.trim());
  if (unnamed >= 0) return `Audience ${unnamed + 1} needs a name, or pick a saved audience for it.`;
  const duplicates = duplicateOf(drafts, saved);
  const later = duplicates.findIndex((d) => d !== null);
  if (later >= 0) {
    const earlier = duplicates[later]!;
    return `Audiences ${earlier + 1} and ${later + 1} are both called “${draftName(drafts[earlier]!, saved).trim()}”: give each audience a name of its own (names are compared ignoring case and surrounding spaces).`;
  }
  return null;
}
