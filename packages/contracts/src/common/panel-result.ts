import { z } from "zod";
import { WinProbability } from "../trust/win-probability.ts";

// One panel's result: what a pairwise pair returns and what close-pair refinement reports
// for each refined pair (rank-response extends it).

export const PairwiseVote = z.object({
  voterId: z.string(),
  order: z.enum(["ab", "ba"]).meta({ description: "The presentation order shown to that voter." }),
  winnerId: z.string().meta({ description: "Empty when the vote is invalid (valid: false)." }),
  loserId: z.string().meta({ description: "Empty when the vote is invalid (valid: false)." }),
  response: z.string().meta({ description: "The raw model response; empty when the model call failed." }),
  valid: z.boolean().optional().meta({ description: "False when the answer named no image clearly or the model call failed; such a vote is returned but not counted." }),
  invalidReason: z.string().optional(),
  model: z.string().optional().meta({ description: 'The voter model that answered, as "provider:model"; absent when no model answered. Seats can hold different models (a mixed panel).' }),
  simulated: z.boolean().optional().meta({ description: "True when the offline `sim` model cast this vote." }),
  modelVersion: z.string().optional().meta({ description: "The exact model version the provider reported for this vote; absent when it reports none." }),
});

export const PairStatus = z.enum(["done", "partial", "error"]);

export const PairwiseResult = z.object({
  pairId: z.string(),
  aId: z.string(),
  bId: z.string(),
  status: PairStatus.meta({ description: "done: a completed five-voter panel (billed); partial and error are not billed." }),
  votes: z.array(PairwiseVote),
  winnerId: z.string().optional(),
  votesFor: z.int().optional(),
  votesTotal: z.int().optional(),
  winRate: z.number().optional(),
  consistency: z.number().optional(),
  win_probability: WinProbability.nullable().optional(),
  error: z.string().optional(),
});
export type PairwiseResult = z.output<typeof PairwiseResult>;
