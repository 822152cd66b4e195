import type { z } from "zod";
import type {
  AnswerWarning as AnswerWarningSchema,
  AssetComparison as AssetComparisonSchema,
  AudienceRanking as AudienceRankingSchema,
  AudienceScore as AudienceScoreSchema,
  AudienceSensitivity as AudienceSensitivitySchema,
  AudienceList as AudienceListSchema,
  CalibrationGroup as CalibrationGroupSchema,
  CalibrationResponse as CalibrationResponseSchema,
  Estimate as EstimateSchema,
  MethodReceipt as MethodReceiptSchema,
  MetricCalibration as MetricCalibrationSchema,
  ModelReceipt as ModelReceiptSchema,
  PairwiseResponse as PairwiseResponseSchema,
  RankAudiencesResponse as RankAudiencesResponseSchema,
  RankAudiencesSummary as RankAudiencesSummarySchema,
  RankResponse as RankResponseSchema,
  RankUncertainty as RankUncertaintySchema,
  RecordedOutcome as RecordedOutcomeSchema,
  RecordOutcomesResponse as RecordOutcomesResponseSchema,
  ReliabilityBin as ReliabilityBinSchema,
  RequestStatus as RequestStatusSchema,
  Reversal as ReversalSchema,
  SavedAudience as SavedAudienceSchema,
  WinProbability as WinProbabilitySchema,
} from "@adrank/contracts";

// The response types, inferred from the contract's schemas (never written twice).
export type RankResponse = z.infer<typeof RankResponseSchema>;
export type PairwiseResponse = z.infer<typeof PairwiseResponseSchema>;
export type SavedAudience = z.infer<typeof SavedAudienceSchema>;

// Audiences side by side (`rankAcrossAudiences`).
/** What `rankAcrossAudiences` answers: one ranking per audience, and where they disagree. */
export type RankAudiencesResponse = z.infer<typeof RankAudiencesResponseSchema>;
/** One audience's complete ranking (`by_audience[]`): what `rank` answers for that audience alone, without its own request_id. */
export type AudienceRanking = z.infer<typeof AudienceRankingSchema>;
/** One asset across the audiences (`comparison[]`): its score and rank under each, the spread, the best and worst audience. */
export type AssetComparison = z.infer<typeof AssetComparisonSchema>;
/** An asset's score and rank under one audience (`comparison[].scores[]`); null figures where it failed for that audience. */
export type AudienceScore = z.infer<typeof AudienceScoreSchema>;
/** Two assets whose order flips between two audiences, each order beyond the repetitions' noise (`reversals[]`). */
export type Reversal = z.infer<typeof ReversalSchema>;
/** How far two audiences' rankings agree (`audience_sensitivity[]`), and whether the personas made no difference. */
export type AudienceSensitivity = z.infer<typeof AudienceSensitivitySchema>;
/** The summary of a `rankAcrossAudiences` answer: counts and credits summed over the audiences, every model, the warnings once. */
export type RankAudiencesSummary = z.infer<typeof RankAudiencesSummarySchema>;
export type AudienceList = z.infer<typeof AudienceListSchema>;
/** An asynchronous request's state: the 202 of `rankAsync`/`pairwiseAsync`/`rankAcrossAudiencesAsync`, and `getRequest` while it runs or after it failed. */
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
