import type { z } from "zod";
import type {
  AudienceList as AudienceListSchema,
  PairwiseResponse as PairwiseResponseSchema,
  RankResponse as RankResponseSchema,
  RequestStatus as RequestStatusSchema,
  SavedAudience as SavedAudienceSchema,
} from "@adrank/contracts";

// The response types, inferred from the contract's schemas (never written twice).
export type RankResponse = z.infer<typeof RankResponseSchema>;
export type PairwiseResponse = z.infer<typeof PairwiseResponseSchema>;
export type SavedAudience = z.infer<typeof SavedAudienceSchema>;
export type AudienceList = z.infer<typeof AudienceListSchema>;
/** An asynchronous request's state: the 202 of `rankAsync`/`pairwiseAsync`, and `getRequest` while it runs or after it failed. */
export type RequestStatus = z.infer<typeof RequestStatusSchema>;
