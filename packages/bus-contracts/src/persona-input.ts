import { z } from "zod";

/** The persona inputs a worker needs. Demographics are as the caller gave them: the persona builder applies the defaults and says which they are. */
export const PersonaInput = z.object({
  audience: z.object({
    name: z.string(),
    description: z.string().optional(),
    demographics: z.record(z.string(), z.string()),
  }),
  goal: z.string(),
  assetType: z.string(),
  platform: z.string().nullable(),
  campaignType: z.string().nullable(),
});
export type PersonaInput = z.infer<typeof PersonaInput>;

/** Normalized ad copy (preferred keys), or null when the work has none. */
export const JobCopy = z.record(z.string(), z.string()).nullable();
export type JobCopy = z.infer<typeof JobCopy>;
