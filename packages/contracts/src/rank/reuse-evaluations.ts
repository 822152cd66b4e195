import { z } from "zod";

// Evaluations reused across requests (issue 36). Every successful evaluation is kept for the
// account that paid for it, whatever its own request asked; this flag only decides whether a
// request may use kept ones. The texts here are the OpenAPI document's.

/** The default time a kept evaluation may be reused (the gateway's ADRANK_KEPT_EVALUATIONS_TTL_HOURS). */
export const KEPT_EVALUATIONS_DEFAULT_TTL_HOURS = 168;

export const ReuseEvaluations = z
  .boolean()
  .default(false)
  .meta({
    description:
      "When true, an evaluation this account already paid for is used again instead of being scored anew: same image (its normalized content), same score layer and ad copy, same persona (audience, demographics, goal, asset type, platform), and the same scoring method (models, their settings, prompts), within the server's keep time (7 days by default). A reused evaluation costs no credit and does not count against the rate limit; the asset is marked `reused: true`. " +
      "Images sent as data URIs are known before anything is reserved, so their reused evaluations are left out of the reservation itself (for up to 240 requests per account and minute on one server; beyond that they are reserved and released like an https:// image's); an https:// image is known only once fetched, so its evaluations are reserved (402/429 count them) and released when the request settles. A request always reserves at least one evaluation. " +
      "Kept evaluations are never shared between accounts, and any change of the models, their settings or the method is never reused. Close-pair refinement still runs over the whole batch. Default false: every evaluation is made (and billed) again.",
  });

export const ASSET_REUSED_DESCRIPTION =
  "True when every evaluation of this asset was reused from an earlier request of this account (`reuse_evaluations`): it cost no credit and its scores are the earlier evaluation's. False when any of its evaluations was made for this request (an asset with copy whose full ad package was reused but whose ablation was scored anew is false; the one new evaluation is billed). Always sent by this version; absent from older servers.";

export const EVALUATIONS_REUSED_DESCRIPTION =
  "Evaluations in this answer reused from earlier requests (`reuse_evaluations`): not billed, not in `scoring_evaluations`, and no model was called for them. Always sent by this version; absent from older servers.";
