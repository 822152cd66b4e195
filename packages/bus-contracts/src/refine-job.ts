import { z } from "zod";
import { ClosePairResult, PanelOutcome } from "@adrank/contracts";
import { ImageRef } from "./image-ref.ts";
import { JobCopy, PersonaInput } from "./persona-input.ts";
import { JobEnvelope, jobResult } from "./job.ts";
import { ModelUsage } from "./model-usage.ts";
import { VoteReceipt } from "./receipt.ts";

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
  copy: JobCopy,
});
export type RefineAsset = z.infer<typeof RefineAsset>;

/** Close-pair refinement of one rank request (spec rank rule 8). */
export const RefineJob = JobEnvelope.extend({
  persona: PersonaInput,
  assets: z.array(RefineAsset).max(20),
});
export type RefineJob = z.infer<typeof RefineJob>;

export const RefinementReport = z.object({
  pairsEvaluated: z.number().int(),
  /** Final score of every offered asset. */
  scores: z.array(z.object({ key: z.number().int(), score: z.number() })),
  /** The panel outcome each affected asset reports. */
  outcomes: z.array(z.object({ key: z.number().int(), panelOutcome: PanelOutcome })),
  /** One result per refined pair, exactly as the response's `close_pair_refinement.results` shows it. */
  results: z.array(ClosePairResult),
  /** Calls and tokens of every vote the panels cast, per voter model. Absent from older refinement workers. */
  usage: z.array(ModelUsage).optional(),
  /** The receipts of the panels' votes, one per distinct voter run. Absent from older refinement workers. */
  voterReceipts: z.array(VoteReceipt).max(60).optional(),
});
export type RefinementReport = z.infer<typeof RefinementReport>;

export const RefineResult = jobResult(z.object({ ok: z.literal(true), report: RefinementReport }));
export type RefineResult = z.infer<typeof RefineResult>;
