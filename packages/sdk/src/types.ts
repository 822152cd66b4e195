import type { z } from "zod";
import type {
  AnswerWarning as AnswerWarningSchema,
  AudienceList as AudienceListSchema,
  CalibrationGroup as CalibrationGroupSchema,
  CalibrationResponse as CalibrationResponseSchema,
  Estimate as EstimateSchema,
  MethodReceipt as MethodReceiptSchema,
  MetricCalibration as MetricCalibrationSchema,
  ModelReceipt as ModelReceiptSchema,
  PairwiseResponse as PairwiseResponseSchema,
  RankResponse as RankResponseSchema,
  RankUncertainty as RankUncertaintySchema,
  RecordedOutcome as RecordedOutcomeSchema,
  RecordOutcomesResponse as RecordOutcomesResponseSchema,
  ReliabilityBin as ReliabilityBinSchema,
  RequestStatus as RequestStatusSchema,
  SavedAudience as SavedAudienceSchema,
  WinProbability as WinProbabilitySchema,
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

// How sure an answer is (issue 34). Every field that carries them is optional: a server older
// than them leaves them out, so read them as "unknown" when absent.
/** A validity warning on a rank or pairwise answer (`summary.warnings`): a stable `code` and a plain `message`; show the message of a code you do not know. */
export type AnswerWarning = z.infer<typeof AnswerWarningSchema>;
/** What produced an answer (`summary.method`): method version, prompt template hashes, reference sets, embedder, and every generator and voter model. */
export type MethodReceipt = z.infer<typeof MethodReceiptSchema>;
/** One model of a receipt: the configured model, the versions the provider reported, the temperature and thinking control sent. */
export type ModelReceipt = z.infer<typeof ModelReceiptSchema>;
/** A panel's preference with its uncertainty (`pairs[].win_probability`): posterior share of voters, its 95 % interval, and P(a majority prefers it). */
export type WinProbability = z.infer<typeof WinProbabilitySchema>;
/** The noise behind a ranking's order (`summary.uncertainty`), with how many neighbouring pairs are too close to call. */
export type RankUncertainty = z.infer<typeof RankUncertaintySchema>;
/** One row of a calibration group's reliability table (`reliability[]`): how often pairs given a p_above_next in the bin came out in that order. */
export type ReliabilityBin = z.infer<typeof ReliabilityBinSchema>;
