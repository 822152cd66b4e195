import { z } from "zod";
import { PANEL_SIZE } from "../method.ts";
import { PairwiseResult } from "../common/panel-result.ts";

export const PairwiseSummary = z.object({
  goal: z.string(),
  platform: z.string().nullable(),
  audience: z.string(),
  model: z.string(),
  panel_size: z.literal(PANEL_SIZE),
  pairs_requested: z.int(),
  pairs_completed: z.int(),
  pairs_failed: z.int(),
  valid_votes: z.int(),
  pairwise_evaluations: z.int(),
  credits_used: z.int(),
  credits_remaining: z.int().nullable(),
});

export const PairwiseResponse = z.object({
  request_id: z.uuid(),
  pairs: z.array(PairwiseResult),
  summary: PairwiseSummary,
});
export type PairwiseResponse = z.output<typeof PairwiseResponse>;
