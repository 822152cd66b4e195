import { z } from "zod";
import { Demographics } from "../common/inline-audience.ts";
import { LIMITS } from "../vocabulary.ts";
import { StoredText } from "../common/stored-text.ts";

/** Saved audiences (additive to v1): the same fields as an inline audience. */
export const CreateAudienceRequest = z.strictObject({
  name: StoredText(LIMITS.audienceNameMaxChars, 1),
  description: StoredText(LIMITS.audienceDescriptionMaxChars).optional(),
  demographics: Demographics.optional(),
});
export type CreateAudienceRequest = z.output<typeof CreateAudienceRequest>;

export const SavedAudience = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  demographics: z.record(z.string(), z.string()),
  created_at: z.iso.datetime({ offset: true }),
});
export type SavedAudience = z.output<typeof SavedAudience>;

export const AudienceList = z.object({ audiences: z.array(SavedAudience) });
