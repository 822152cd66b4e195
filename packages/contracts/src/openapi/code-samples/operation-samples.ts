import { createAudienceRequestExamples } from "../examples/audiences.ts";
import { SUNRISE_RUN, SUNRISE_RUN_PNG, STUDIO_SHOE, STUDIO_SHOE_PNG } from "../examples/images.ts";
import type { Examples } from "../examples/named-example.ts";
import { pairwiseRequestExamples } from "../examples/pairwise.ts";
import { rankRequestExamples } from "../examples/rank.ts";
import { createAudienceCliSample, getRequestCliSample, listAudiencesCliSample, pairwiseCliSample, rankCliSample } from "./cli.ts";
import type { CodeSample } from "./code-sample.ts";
import { curlSample } from "./curl.ts";
import { createAudienceSdkSample, getRequestSdkSample, listAudiencesSdkSample, pairwiseSdkSample, rankSdkSample } from "./sdk.ts";

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
]);

/** The shell variable the getRequest samples read the id from (a 202's request_id). */
export const REQUEST_ID_VARIABLE = "$REQUEST_ID";

/** x-codeSamples of every operation, by operationId: curl, the TypeScript SDK and the CLI. */
export function operationCodeSamples(): Record<"rankAssets" | "compareCreativePairs" | "getRequest" | "listAudiences" | "createAudience", CodeSample[]> {
  const rank = firstExample(rankRequestExamples);
  const pairwise = firstExample(pairwiseRequestExamples);
  const audience = firstExample(createAudienceRequestExamples);
  return {
    rankAssets: [curlSample("POST", "/api/v1/rank", rank), rankSdkSample(rank, IMAGE_FILES), rankCliSample(rank)],
    compareCreativePairs: [curlSample("POST", "/api/v1/pairwise", pairwise), pairwiseSdkSample(pairwise, IMAGE_FILES), pairwiseCliSample(pairwise)],
    // The SDK and CLI samples start an asynchronous ranking of the rank example and follow it.
    getRequest: [curlSample("GET", `/api/v1/requests/${REQUEST_ID_VARIABLE}`), getRequestSdkSample(rank, IMAGE_FILES), getRequestCliSample(rank)],
    listAudiences: [curlSample("GET", "/api/v1/audiences"), listAudiencesSdkSample(), listAudiencesCliSample()],
    createAudience: [curlSample("POST", "/api/v1/audiences", audience), createAudienceSdkSample(audience), createAudienceCliSample(audience)],
  };
}
