import type { PersonaInput } from "@adrank/bus-contracts";
import type { Goal, ScoreLayer } from "@adrank/contracts";
import { givenDemographics } from "./demographics.ts";
import { effectivePlatform } from "./platform.ts";

/** The parts of a parsed RankRequest (defaults applied, copy aliases normalized) that planning reads. */
export interface RankRequestInput {
  assets: ReadonlyArray<{
    url: string;
    id?: string | undefined;
    asset_type?: string | undefined;
    copy_context?: Readonly<Record<string, string>> | undefined;
  }>;
  goal: Goal;
  asset_type: string;
  platform?: string | undefined;
  campaign_type?: string | undefined;
  refine_close_pairs: boolean;
}

/** An inline audience, or a saved one loaded for the caller's account. */
export interface ResolvedAudience {
  name: string;
  description?: string | null | undefined;
  demographics?: Readonly<Record<string, unknown>> | undefined;
}

export interface AssetPlan {
  /** Position in the request: the tie-breaker of the ranking and the key of its outcome. */
  index: number;
  url: string;
  assetId: string | null;
  /** The asset's own asset_type, else the request's. */
  assetType: string;
  /** Normalized copy (preferred keys), or null when the asset has no copy_context. */
  copy: Record<string, string> | null;
  persona: PersonaInput;
}

export interface RankPlan {
  goal: Goal;
  /** The request-level asset_type (the summary reports it). */
  assetType: string;
  /**
   * The request's own persona, with the request-level asset_type: what close-pair
   * refinement judges by (each refined asset brings its own type), never one asset's.
   */
  persona: PersonaInput;
  /** The delivery platform: `platform`, else the campaign type's platform, else null. */
  platform: string | null;
  audienceName: string;
  refineClosePairs: boolean;
  assets: AssetPlan[];
  /** The most scoring evaluations the batch can use: what is reserved before any work. */
  maxEvaluations: number;
}

/**
 * Decides, before any I/O, what each asset needs: its asset type, the persona it is judged
 * by, and the most evaluations it can cost (1, or 2 with copy_context). The evaluations that
 * actually run are chosen once the image is prepared (see `layersFor`).
 */
export function planRank(request: RankRequestInput, audience: ResolvedAudience): RankPlan {
  const platform = effectivePlatform(request.platform, request.campaign_type);
  const requestPersona = personaOf(request, audience);
  const assets = request.assets.map((asset, index): AssetPlan => {
    const assetType = asset.asset_type ?? request.asset_type;
    return {
      index,
      url: asset.url,
      assetId: asset.id ?? null,
      assetType,
      copy: asset.copy_context ? { ...asset.copy_context } : null,
      persona: { ...requestPersona, assetType },
    };
  });
  return {
    goal: request.goal,
    assetType: request.asset_type,
    persona: { ...requestPersona, assetType: request.asset_type },
    platform,
    audienceName: audience.name,
    refineClosePairs: request.refine_close_pairs,
    assets,
    maxEvaluations: assets.reduce((sum, a) => sum + maxEvaluationsOf(a), 0),
  };
}

/** 1 per asset, plus 1 for the image-only ablation of an asset with copy. */
export function maxEvaluationsOf(asset: Pick<AssetPlan, "copy">): number {
  return asset.copy ? 2 : 1;
}

/**
 * The evaluations of one asset once its image is known, primary first. With copy and an
 * image that shows nothing (uniform, tiny), the ad is judged on its copy alone: there is no
 * picture to ablate, so one copy-only evaluation runs.
 */
export function layersFor(asset: Pick<AssetPlan, "copy">, image: { hasVisualContent: boolean }): [ScoreLayer] | [ScoreLayer, ScoreLayer] {
  if (!asset.copy) return ["image-only"];
  if (!image.hasVisualContent) return ["copy-only"];
  return ["full-ad-package", "image-only"];
}

/**
 * The persona of a request: the audience as given (defaults are the persona builder's), the
 * goal and the placement. Rule 3: `campaign_type` is the placement context only when
 * `platform` is omitted. It has no asset type: a scoring persona adds the judged asset's,
 * and a panel frames each image by its own.
 *
 * @example
 * const scoring: PersonaInput = { ...personaOf(request, audience), assetType: "Logo" };
 */
export function personaOf(
  request: { goal: Goal; platform?: string | null | undefined; campaign_type?: string | null | undefined },
  audience: ResolvedAudience,
): Omit<PersonaInput, "assetType"> {
  const hasPlatform = request.platform != null && request.platform.trim() !== "";
  return {
    audience: {
      name: audience.name,
      demographics: givenDemographics(audience.demographics),
      ...(audience.description ? { description: audience.description } : {}),
    },
    goal: request.goal,
    platform: effectivePlatform(request.platform, request.campaign_type),
    campaignType: hasPlatform ? null : (request.campaign_type?.trim() || null),
  };
}
