import { AUDIENCE_NAMES_UNIQUE, audienceNameKey, type AudienceItem } from "@adrank/contracts";
import type { ResolvedAudience } from "@adrank/rank-assembly";
import { AudienceNotFoundError, BodyValidationError } from "../../errors/api-errors.ts";

export interface NamedAudience {
  audience: ResolvedAudience;
  /** The saved audience's id; null for an inline one. */
  audienceId: string | null;
}

/**
 * Every audience of a side-by-side request: inline ones as given, saved ones loaded for the
 * caller (another account's id is a 404, as in rank). Names must be unique, compared as the
 * contract compares them; a saved audience's name is known only here, so a clash that
 * involves one is found here and reported on its `audience_id`.
 */
export async function resolveAudiences(
  audiences: { findOwned(accountId: string, id: string): Promise<ResolvedAudience | null> },
  accountId: string,
  items: readonly AudienceItem[],
): Promise<NamedAudience[]> {
  const resolved = await Promise.all(
    items.map(async (item, i): Promise<NamedAudience> => {
      if (!("audience_id" in item)) return { audience: item, audienceId: null };
      const saved = await audiences.findOwned(accountId, item.audience_id);
      // Another account's id is answered exactly like a missing one, so ids reveal nothing.
      if (!saved) throw new AudienceNotFoundError(item.audience_id, `audiences[${i}].audience_id`);
      return { audience: { name: saved.name, description: saved.description, demographics: saved.demographics }, audienceId: item.audience_id };
    }),
  );
  const firstWithName = new Map<string, number>();
  resolved.forEach(({ audience, audienceId }, i) => {
    const key = audienceNameKey(audience.name);
    const earlier = firstWithName.get(key);
    if (earlier !== undefined) {
      const field = audienceId === null ? `audiences[${i}].name` : `audiences[${i}].audience_id`;
      const named = audienceId === null ? "" : ` (the saved audience is named "${audience.name}", as audiences[${earlier}] is)`;
      throw new BodyValidationError(`${field} ${AUDIENCE_NAMES_UNIQUE}${named}.`, field);
    }
    firstWithName.set(key, i);
  });
  return resolved;
}
