import { z } from "zod";
import { ImageRef, PersonaInput } from "./score-job.ts";

/** A scored asset offered for close-pair refinement. */
export const RefineAsset = z.object({
  /** The asset's position in the rank request. */
  key: z.number().int().min(0),
  /** The id the response shows (asset_id, or `asset[<position>]` when none was given); never shown to a voter. */
  id: z.string(),
  score: z.number(),
  /** The asset's own asset type: the persona's framing when it is shown to a voter. */
  assetType: z.string(),
  image: ImageRef,
  copy: z.record(z.string(), z.string()).nullable(),
});
export type RefineAsset = z.infer<typeof RefineAsset>;

/** Close-pair refinement of one rank request (spec rank rule 8). */
export const RefineJob = z.object({
  requestId: z.string().uuid(),
  jobId: z.string().min(1).max(128),
  deadline: z.number().int(),
  persona: PersonaInput,
  assets: z.array(RefineAsset).max(20),
});
export type RefineJob = z.infer<typeof RefineJob>;

const PanelOutcome = z.object({
  winnerAssetId: z.string(),
  loserAssetId: z.string(),
  flipped: z.boolean(),
  votesFor: z.number().int(),
  votesTotal: z.number().int(),
  consistency: z.number(),
});

export const RefinementReport = z.object({
  pairsEvaluated: z.number().int(),
  /** Final score of every offered asset. */
  scores: z.array(z.object({ key: z.number().int(), score: z.number() })),
  /** The panel outcome each affected asset reports. */
  outcomes: z.array(z.object({ key: z.number().int(), panelOutcome: PanelOutcome })),
  /** One raw result per refined pair, as the response's `close_pair_refinement.results` shows it. */
  results: z.array(z.record(z.string(), z.unknown())),
});
export type RefinementReport = z.infer<typeof RefinementReport>;

export const RefineResult = z.object({
  requestId: z.string().uuid(),
  jobId: z.string(),
  worker: z.string(),
  outcome: z.discriminatedUnion("ok", [z.object({ ok: z.literal(true), report: RefinementReport }), z.object({ ok: z.literal(false), error: z.string() })]),
});
export type RefineResult = z.infer<typeof RefineResult>;
