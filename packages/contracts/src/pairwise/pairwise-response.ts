import { z } from "zod";
import { CreditsStatus } from "../common/credits-status.ts";
import { PANEL_SIZE } from "../method.ts";
import { PairwiseResult } from "../common/panel-result.ts";
import { ModelsUsed } from "../common/models-used.ts";
import { AnswerWarnings } from "../trust/answer-warnings.ts";
import { MethodReceipt } from "../trust/method-receipt.ts";

/** Clients must accept unknown keys here (Versioning 3). */
export const PairwiseSummary = z.looseObject({
  goal: z.string(),
  platform: z.string().nullable(),
  audience: z.string(),
  model: z.string().meta({ description: 'The voter model, as "provider:model"; several joined by ", " when the panel is mixed. See `models` for the full account.' }),
  panel_size: z.literal(PANEL_SIZE),
  pairs_requested: z.int(),
  pairs_completed: z.int(),
  pairs_failed: z.int(),
  valid_votes: z.int(),
  pairwise_evaluations: z.int(),
  credits_used: z.int(),
  credits_remaining: z.int().nullable(),
  credits_status: CreditsStatus.optional(),
  models: ModelsUsed.optional().meta({ description: "Which models produced this response, and whether any of them is the simulated model. Always sent by this version; absent from servers older than it, so clients should treat a missing value as unknown." }),
  warnings: AnswerWarnings.optional(),
  method: MethodReceipt.optional(),
});

export const PairwiseResponse = z.object({
  request_id: z.uuid(),
  pairs: z.array(PairwiseResult),
  summary: PairwiseSummary,
});
export type PairwiseResponse = z.output<typeof PairwiseResponse>;
