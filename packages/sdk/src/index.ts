export {
  createClient,
  type AdRankClient,
  type ApiResult,
  type AsyncCallOptions,
  type AudienceItemInput,
  type CalibrationQueryInput,
  type CallOptions,
  type ClientOptions,
  type CreateAudienceInput,
  type IdempotentCallOptions,
  type PairwiseInput,
  type RankAudiencesInput,
  type RankInput,
  type RecordOutcomesInput,
  type RetryEvent,
} from "./client.ts";
export {
  AdRankError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitError,
  RequestFailedError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  type ErrorDetails,
} from "./errors.ts";
export { statusText } from "./error-from-response.ts";
export { cleartextKeyProblem, isLoopbackHost } from "./cleartext-key.ts";
export { checkOutcomes, type OutcomesCheck } from "./check-outcomes.ts";
export { checkAudiences, type AudiencesCheck } from "./check-audiences.ts";
export { imageBytesToDataUri, imageFileToDataUri, MAX_IMAGE_BYTES, sniffImageType, type ImageMimeType } from "./data-uri.ts";
export { ImageError, type ImageErrorKind } from "./image-error.ts";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.ts";
export type {
  AnswerWarning,
  AssetComparison,
  AudienceList,
  AudienceRanking,
  AudienceScore,
  AudienceSensitivity,
  CalibrationGroup,
  CalibrationResponse,
  Estimate,
  MethodReceipt,
  MetricCalibration,
  ModelReceipt,
  PairwiseResponse,
  RankAudiencesResponse,
  RankAudiencesSummary,
  RankResponse,
  RankUncertainty,
  RecordedOutcome,
  RecordOutcomesResponse,
  ReliabilityBin,
  RequestStatus,
  Reversal,
  SavedAudience,
  WinProbability,
} from "./types.ts";
export type { RequestOutcome } from "./request-outcome.ts";
export { DEFAULT_POLL_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS, type RequestResult, type WaitOptions } from "./wait-for-result.ts";
// The spec's closed lists, for pickers, help texts and client-side checks.
export { ASSET_TYPES, DEMOGRAPHIC_VALUES, GOALS, LIMITS, type AssetType, type DemographicField, type Goal } from "@adrank/contracts";
// The bounds of outcomes and calibration: a batch's size, and the least outcomes a figure needs.
export { CALIBRATION_MIN_OUTCOMES, METRIC_NAME_PATTERN, OUTCOMES_PER_REQUEST_MAX } from "@adrank/contracts";
// Audiences side by side: how names are compared (case and surrounding spaces aside), and the probability beyond which a difference counts as real.
export { audienceNameKey, BEYOND_NOISE_PROBABILITY } from "@adrank/contracts";
// How sure an answer is: the band of p_above_next inside which a neighbouring pair is too close to call, and the warning codes this version sends.
export { TOO_CLOSE_TO_CALL, WARNING_CODES, type WarningCode } from "@adrank/contracts";
export { signWebhookPayload, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, DEFAULT_WEBHOOK_TOLERANCE_SECONDS, type VerifyWebhookOptions, type WebhookVerification } from "./webhook-signature.ts";
