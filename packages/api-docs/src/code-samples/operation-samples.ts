import { createAudienceRequestExamples } from "../examples/audiences.ts";
import { EXAMPLE_METRIC, OUTCOMES_REQUEST_ID, recordOutcomesRequestExamples } from "../examples/outcomes.ts";
import { SALE_BADGE, SALE_BADGE_PNG, SUNRISE_RUN, SUNRISE_RUN_PNG, STUDIO_SHOE, STUDIO_SHOE_PNG } from "../examples/images.ts";
import type { Examples } from "../examples/named-example.ts";
import { pairwiseRequestExamples } from "../examples/pairwise.ts";
import { rankRequestExamples } from "../examples/rank.ts";
import { rankAudiencesRequestExamples } from "../examples/rank-audiences.ts";
import {
  createAudienceCliSample, getCalibrationCliSample, getRequestCliSample, listAudiencesCliSample, pairwiseCliSample, rankAcrossAudiencesCliSample, rankCliSample,
  recordOutcomesCliSample,
} from "./cli.ts";
import type { CodeSample } from "./code-sample.ts";
import { curlSample } from "./curl.ts";
import {
  createAudienceSdkSample, getCalibrationSdkSample, getRequestSdkSample, listAudiencesSdkSample, pairwiseSdkSample, rankAcrossAudiencesSdkSample, rankSdkSample,
  recordOutcomesSdkSample,
} from "./sdk.ts";

/** The example a sample sends: the first of the operation's request examples. */
export function firstExample<T>(examples: Examples<T>): T {
  const first = Object.values(examples)[0];
  if (!first) throw new Error("an operation with a request body needs at least one example");
  return first.value;
}

/** Which file each example image is, for the samples that read images from disk. */
const IMAGE_FILES = new Map([
  [SUNRISE_RUN_PNG, SUNRISE_RUN],
  [STUDIO_SHOE_PNG, STUDIO_SHOE],
  [SALE_BADGE_PNG, SALE_BADGE],
]);

/** The shell variable the getRequest and recordOutcomes samples read a request id from (one the reader made). */
export const REQUEST_ID_VARIABLE = "$REQUEST_ID";

/** What the getCalibration samples ask for: the metric the recordOutcomes samples record. */
export const CALIBRATION_SAMPLE_QUERY = { metric: EXAMPLE_METRIC };

/** x-codeSamples of every operation, by operationId: curl, the TypeScript SDK and the CLI. */
export function operationCodeSamples(): Record<"rankAssets" | "rankAcrossAudiences" | "compareCreativePairs" | "getRequest" | "listAudiences" | "createAudience" | "recordOutcomes" | "getCalibration", CodeSample[]> {
  const rank = firstExample(rankRequestExamples);
  const rankAudiences = firstExample(rankAudiencesRequestExamples);
  const pairwise = firstExample(pairwiseRequestExamples);
  const audience = firstExample(createAudienceRequestExamples);
  const outcomes = firstExample(recordOutcomesRequestExamples);
  // The outcomes are of a ranking the reader made, not of the example's: its id in $REQUEST_ID.
  const requestId = (code: string) => new Map([[OUTCOMES_REQUEST_ID, code]]);
  return {
    rankAssets: [curlSample("POST", "/api/v1/rank", rank), rankSdkSample(rank, IMAGE_FILES), rankCliSample(rank)],
    rankAcrossAudiences: [
      curlSample("POST", "/api/v1/rank/audiences", rankAudiences),
      rankAcrossAudiencesSdkSample(rankAudiences, IMAGE_FILES),
      rankAcrossAudiencesCliSample(rankAudiences),
    ],
    compareCreativePairs: [curlSample("POST", "/api/v1/pairwise", pairwise), pairwiseSdkSample(pairwise, IMAGE_FILES), pairwiseCliSample(pairwise)],
    // The SDK and CLI samples start an asynchronous ranking of the rank example and follow it.
    getRequest: [curlSample("GET", `/api/v1/requests/${REQUEST_ID_VARIABLE}`), getRequestSdkSample(rank, IMAGE_FILES), getRequestCliSample(rank)],
    listAudiences: [curlSample("GET", "/api/v1/audiences"), listAudiencesSdkSample(), listAudiencesCliSample()],
    createAudience: [curlSample("POST", "/api/v1/audiences", audience), createAudienceSdkSample(audience), createAudienceCliSample(audience)],
    recordOutcomes: [
      curlSample("POST", "/api/v1/outcomes", outcomes, requestId(REQUEST_ID_VARIABLE)),
      recordOutcomesSdkSample(outcomes, requestId(`process.env.${REQUEST_ID_VARIABLE.slice(1)}!`)),
      recordOutcomesCliSample(outcomes, requestId(REQUEST_ID_VARIABLE)),
    ],
    getCalibration: [
      curlSample("GET", `/api/v1/calibration?${new URLSearchParams(CALIBRATION_SAMPLE_QUERY).toString()}`),
      getCalibrationSdkSample(CALIBRATION_SAMPLE_QUERY),
      getCalibrationCliSample(CALIBRATION_SAMPLE_QUERY),
    ],
  };
}
