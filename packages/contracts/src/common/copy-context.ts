import { z } from "zod";
import { COPY_ALIASES, LIMITS } from "../vocabulary.ts";

export type NormalizedCopy = Record<string, string>;

/**
 * Replaces each alias by its preferred key. When a preferred key and one of its aliases are
 * both given, the preferred key wins and the alias is dropped; among aliases, the first in
 * the spec's order wins.
 */
export function normalizeCopy(input: Record<string, string>): NormalizedCopy {
  const out: NormalizedCopy = { ...input };
  for (const [preferred, aliases] of Object.entries(COPY_ALIASES)) {
    for (const alias of aliases) {
      if (!(alias in out)) continue;
      if (!(preferred in out)) out[preferred] = out[alias]!;
      delete out[alias];
    }
  }
  return out;
}

export const CopyContext = z
  .record(z.string().max(LIMITS.copyKeyMaxChars), z.string().max(LIMITS.copyValueMaxChars))
  .refine((v) => Object.keys(v).length <= LIMITS.copyKeysMax, { message: `must have at most ${LIMITS.copyKeysMax} keys` })
  .transform(normalizeCopy)
  .meta({
    description:
      "Ad copy. Additional keys are allowed; every value is a string. Preferred keys: pageName (aliases businessName, displayName), adBody (primaryText, body, copy), adHeadline (headline), adCaption (caption), adDescription (description). Aliases are normalized to the preferred key; when both are given the preferred key wins.",
  });
