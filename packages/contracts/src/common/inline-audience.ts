import { z } from "zod";
import { DEMOGRAPHIC_VALUES, LIMITS } from "../vocabulary.ts";
import { StoredText } from "./stored-text.ts";

const D = DEMOGRAPHIC_VALUES;
const known = {
  ageRange: z.enum(D.ageRange).optional(),
  incomeLevel: z.enum(D.incomeLevel).optional(),
  adSkepticism: z.enum(D.adSkepticism).optional(),
  trustBaseline: z.enum(D.trustBaseline).optional(),
  priceSensitivity: z.enum(D.priceSensitivity).optional(),
  categoryFamiliarity: z.enum(D.categoryFamiliarity).optional(),
  shoppingIntent: z.enum(D.shoppingIntent).optional(),
  urgency: z.enum(D.urgency).optional(),
  brandFamiliarity: z.enum(D.brandFamiliarity).optional(),
  platformFatigue: z.enum(D.platformFatigue).optional(),
};

export const Demographics = z
  .object(known)
  .catchall(StoredText(LIMITS.demographicsValueMaxChars))
  .refine((v) => Object.keys(v).length - Object.keys(known).filter((k) => k in v).length <= LIMITS.demographicsExtraKeysMax, {
    message: `may have at most ${LIMITS.demographicsExtraKeysMax} additional keys`,
  })
  .refine((v) => Object.keys(v).every((k) => k.length <= LIMITS.demographicsKeyMaxChars && !k.includes("\u0000")), {
    message: `keys must be at most ${LIMITS.demographicsKeyMaxChars} characters long, without NUL characters`,
  })
  .meta({ description: "Optional persona traits; defaults apply to omitted fields. They shape the persona and filter nothing. Additional keys (strings) are allowed." });

export const InlineAudience = z
  .strictObject({
    name: StoredText(LIMITS.audienceNameMaxChars, 1),
    description: StoredText(LIMITS.audienceDescriptionMaxChars).optional().meta({ description: "Free text describing the buying situation." }),
    demographics: Demographics.optional(),
  })
  .meta({ id: "InlineAudience" });
export type InlineAudience = z.output<typeof InlineAudience>;
