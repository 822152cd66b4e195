import { z } from "zod";
import { exactlyOneAudience } from "../common/audience-choice.ts";
import { Identifier } from "../common/identifier.ts";
import { ImageUrl } from "../common/image-url.ts";
import { InlineAudience } from "../common/inline-audience.ts";
import { AssetTypeName, Goal, Platform } from "../rank/rank-request.ts";
import { asyncFields, webhookNeedsAsync } from "../requests/async-fields.ts";
import { DEFAULT_GOAL, LIMITS } from "../vocabulary.ts";

export const PairwiseAsset = z.strictObject({
  id: Identifier,
  image_url: ImageUrl,
  asset_type: AssetTypeName.optional().meta({ description: "What this creative is; voters judge each image as its own type. When omitted, the type is not stated to the voters." }),
});

export const PairwisePair = z.strictObject({ pair_id: Identifier, a: PairwiseAsset, b: PairwiseAsset });

export const PairwiseRequest = z
  .strictObject({
    pairs: z.array(PairwisePair).min(LIMITS.pairsMin).max(LIMITS.pairsMax),
    audience: InlineAudience.optional(),
    audience_id: Identifier.optional(),
    goal: Goal.default(DEFAULT_GOAL),
    platform: Platform.optional(),
    campaign_type: Platform.optional(),
    ...asyncFields,
  })
  .superRefine(exactlyOneAudience)
  .superRefine(webhookNeedsAsync)
  .meta({ description: "Exactly one of audience and audience_id must be present." });
export type PairwiseRequest = z.output<typeof PairwiseRequest>;
