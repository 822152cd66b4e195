export { createClient, type AdRankClient, type ApiResult, type CallOptions, type ClientOptions, type CreateAudienceInput, type PairwiseInput, type RankInput, type RetryEvent } from "./client.ts";
export {
  AdRankError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  type ErrorDetails,
} from "./errors.ts";
export { statusText } from "./error-from-response.ts";
export { imageBytesToDataUri, imageFileToDataUri, MAX_IMAGE_BYTES, sniffImageType, type ImageMimeType } from "./data-uri.ts";
export { ImageError, type ImageErrorKind } from "./image-error.ts";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.ts";
export type { AudienceList, PairwiseResponse, RankResponse, SavedAudience } from "./types.ts";
// The spec's closed lists, for pickers, help texts and client-side checks.
export { ASSET_TYPES, DEMOGRAPHIC_VALUES, GOALS, LIMITS, type AssetType, type DemographicField, type Goal } from "@adrank/contracts";
