import { z } from "zod";
import { Identifier } from "../common/identifier.ts";
import { InlineAudience } from "../common/inline-audience.ts";
import { asyncFields, webhookNeedsAsync } from "../requests/async-fields.ts";
import { AssetInput, AssetTypeName, Goal, Platform } from "../rank/rank-request.ts";
import { ReuseEvaluations } from "../rank/reuse-evaluations.ts";
import { DEFAULT_ASSET_TYPE, DEFAULT_GOAL, LIMITS } from "../vocabulary.ts";

/** A saved audience named by its id (it must belong to the authenticated account). */
export const SavedAudienceChoice = z
  .strictObject({
    audience_id: Identifier.meta({ description: "Id of a saved audience owned by the authenticated account." }),
  })
  .meta({ id: "SavedAudienceChoice" });

/** One audience of a side-by-side ranking: a saved one by id, or one given inline. */
export const AudienceItem = z.union([SavedAudienceChoice, InlineAudience]).meta({ description: "Either `{ \"audience_id\": \"…\" }` or an inline audience." });
export type AudienceItem = z.output<typeof AudienceItem>;

/**
 * Audience names compare without regard to case, surrounding spaces or Unicode form, so that
 * "Runners" and "runners " cannot become two columns of a matrix nobody can tell apart.
 */
export function audienceNameKey(name: string): string {
  return name.normalize("NFC").trim().toLowerCase();
}

export const AUDIENCE_NAMES_UNIQUE = "must be unique among the request's audiences (compared without regard to case or surrounding spaces)";

/** Inline names are checked here; a saved audience's name is known only once it is loaded (the gateway checks it then, with the same words). */
function inlineNamesUnique(body: { audiences: readonly AudienceItem[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  body.audiences.forEach((audience, i) => {
    if (!("name" in audience)) return;
    const key = audienceNameKey(audience.name);
    if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["audiences", i, "name"], message: AUDIENCE_NAMES_UNIQUE });
    seen.add(key);
  });
}

export const RankAudiencesRequest = z
  .strictObject({
    assets: z.array(AssetInput).min(LIMITS.assetsMin).max(LIMITS.assetsMax),
    audiences: z
      .array(AudienceItem)
      .min(LIMITS.audiencesMin)
      .max(LIMITS.audiencesMax)
      .meta({ description: `${LIMITS.audiencesMin} to ${LIMITS.audiencesMax} audiences, each inline or saved; names unique. Every asset is evaluated once per audience.` }),
    goal: Goal.default(DEFAULT_GOAL),
    asset_type: AssetTypeName.default(DEFAULT_ASSET_TYPE).meta({ description: "Default for assets that give no asset_type of their own." }),
    platform: Platform.optional().meta({ description: "Delivery context, as for POST /api/v1/rank." }),
    campaign_type: Platform.optional().meta({ description: "Placement alias used when platform is omitted, as for POST /api/v1/rank." }),
    refine_close_pairs: z.boolean().default(true).meta({ description: "Refine close pairs within each audience's ranking, as POST /api/v1/rank does." }),
    reuse_evaluations: ReuseEvaluations,
    ...asyncFields,
  })
  .superRefine(inlineNamesUnique)
  .superRefine(webhookNeedsAsync)
  .meta({
    description:
      "Ranks one set of assets for several audiences at once. Each audience's ranking is exactly the one POST /api/v1/rank would return for that audience alone; the response adds where they disagree.",
  });
export type RankAudiencesRequest = z.output<typeof RankAudiencesRequest>;
export type RankAudiencesRequestInput = z.input<typeof RankAudiencesRequest>;
