import { z } from "zod";
import { exactlyOneAudience } from "../common/audience-choice.ts";
import { CopyContext } from "../common/copy-context.ts";
import { Identifier } from "../common/identifier.ts";
import { ImageUrl } from "../common/image-url.ts";
import { InlineAudience } from "../common/inline-audience.ts";
import { asyncFields, webhookNeedsAsync } from "../requests/async-fields.ts";
import { ReuseEvaluations } from "./reuse-evaluations.ts";
import { ASSET_TYPES, DEFAULT_ASSET_TYPE, DEFAULT_GOAL, GOALS, LIMITS } from "../vocabulary.ts";

export const Goal = z.enum(GOALS);
export const AssetTypeName = z.enum(ASSET_TYPES);
export const Platform = z.string().min(1).max(LIMITS.platformMaxChars);

export const AssetInput = z.strictObject({
  url: ImageUrl,
  id: Identifier.optional().meta({ description: "Caller-supplied correlation id, returned as asset_id." }),
  asset_type: AssetTypeName.optional().meta({ description: "Overrides the request-level asset_type for this asset." }),
  copy_context: CopyContext.optional().meta({ description: "When present, the asset is scored as a full ad package plus an image-only ablation." }),
});
export type AssetInput = z.output<typeof AssetInput>;

export const RankRequest = z
  .strictObject({
    assets: z.array(AssetInput).min(LIMITS.assetsMin).max(LIMITS.assetsMax),
    audience: InlineAudience.optional(),
    audience_id: Identifier.optional().meta({ description: "Id of a saved audience owned by the authenticated account." }),
    goal: Goal.default(DEFAULT_GOAL),
    asset_type: AssetTypeName.default(DEFAULT_ASSET_TYPE).meta({ description: "Default for assets that give no asset_type of their own." }),
    platform: Platform.optional().meta({ description: "Delivery context, e.g. meta, instagram, facebook, tiktok, linkedin, google. Free text; known values get tailored framing." }),
    campaign_type: Platform.optional().meta({ description: "Placement alias used when platform is omitted (e.g. reels, stories, shorts, feed)." }),
    refine_close_pairs: z.boolean().default(true),
    reuse_evaluations: ReuseEvaluations,
    ...asyncFields,
  })
  .superRefine(exactlyOneAudience)
  .superRefine(webhookNeedsAsync)
  .meta({ description: "Exactly one of audience and audience_id must be present." });
export type RankRequest = z.output<typeof RankRequest>;
export type RankRequestInput = z.input<typeof RankRequest>;
