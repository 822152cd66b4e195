import { z } from "zod";
import { GOALS } from "@adrank/contracts";

/** The persona inputs a worker needs. Demographics are as the caller gave them: the persona builder applies the defaults and says which they are. */
export const PersonaInput = z.object({
  audience: z.object({
    name: z.string(),
    description: z.string().optional(),
    demographics: z.record(z.string(), z.string()),
  }),
  /** One of the contract's goals: a job with any other is refused where it is read, not rated as another goal. */
  goal: z.enum(GOALS),
  /**
   * In a score job, the type of the one asset judged (its own asset_type, else the
   * request's). In a refine job, the rank request's asset_type; each refined asset carries
   * its own. A vote job has no persona asset type at all (see `PanelPersonaInput`).
   */
  assetType: z.string(),
  platform: z.string().nullable(),
  campaignType: z.string().nullable(),
});
export type PersonaInput = z.infer<typeof PersonaInput>;

/**
 * The persona of a panel vote: the request's audience, goal and placement. It has no asset
 * type because the two images may differ in type; the vote job gives each image's own
 * (`VoteJob.assetTypes`), so one asset's framing can never cover both.
 */
export const PanelPersonaInput = PersonaInput.omit({ assetType: true });
export type PanelPersonaInput = z.infer<typeof PanelPersonaInput>;

/** Normalized ad copy (preferred keys), or null when the work has none. */
export const JobCopy = z.record(z.string(), z.string()).nullable();
export type JobCopy = z.infer<typeof JobCopy>;
