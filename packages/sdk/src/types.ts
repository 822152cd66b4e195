import type { z } from "zod";
import type {
  AudienceList as AudienceListSchema,
  CalibrationGroup as CalibrationGroupSchema,
  CalibrationResponse as CalibrationResponseSchema,
  Estimate as EstimateSchema,
  MetricCalibration as MetricCalibrationSchema,
  PairwiseResponse as PairwiseResponseSchema,
  RankResponse as RankResponseSchema,
  RecordedOutcome as RecordedOutcomeSchema,
  RecordOutcomesResponse as RecordOutcomesResponseSchema,
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
/** What `outcomes.record` answers: counts of what changed, and every outcome in the order sent. */
export type RecordOutcomesResponse = z.infer<typeof RecordOutcomesResponseSchema>;
/** One recorded outcome with the score, goal and sim flag its ranking gave the asset. */
export type RecordedOutcome = z.infer<typeof RecordedOutcomeSchema>;
/** What `calibration.get` answers: per metric, a pooled group and one per goal. */
export type CalibrationResponse = z.infer<typeof CalibrationResponseSchema>;
export type MetricCalibration = z.infer<typeof MetricCalibrationSchema>;
/** The figures of one goal (or pooled, `goal: null`); all null when `enough_data` is false. */
export type CalibrationGroup = z.infer<typeof CalibrationGroupSchema>;
/** A figure with its 95 % bootstrap interval. */
export type Estimate = z.infer<typeof EstimateSchema>;
