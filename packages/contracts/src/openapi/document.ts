import { componentSchemas } from "./components.ts";
import { operationCodeSamples } from "./code-samples/operation-samples.ts";
import { audienceListExamples, createAudienceRequestExamples, savedAudienceExamples } from "./examples/audiences.ts";
import * as errorExamples from "./examples/errors.ts";
import type { Examples } from "./examples/named-example.ts";
import { pairwiseRequestExamples, pairwiseResponseExamples } from "./examples/pairwise.ts";
import { rankRequestExamples, rankResponseExamples } from "./examples/rank.ts";
import { INTRODUCTION } from "./guide/introduction.ts";
import { TAG, TAGS } from "./tags.ts";

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string, examples: Examples<unknown>) => ({ "application/json": { schema: ref(id), examples } });

const requestIdHeader = { $ref: "#/components/headers/X-Request-Id" };
const error = (description: string, examples: Examples<unknown>, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { "X-Request-Id": requestIdHeader, ...extraHeaders },
  content: json("ErrorResponse", examples),
});
const e = errorExamples;
const badRequest = error("The body is not JSON, or not sent as application/json.", e.badRequestExamples);
const unauthenticated = error("Missing or invalid API key.", e.unauthenticatedExamples, { "WWW-Authenticate": { $ref: "#/components/headers/WWW-Authenticate" } });
const tooLarge = error("The body is larger than 25 MiB.", e.bodyTooLargeExamples);
const internal = error("Unexpected internal failure. The body never carries internal details; it carries request_id to quote when reporting it.", e.internalErrorExamples);
const invalid = (examples: Examples<unknown>) => error("Validation error: the body breaks the schema. `field` names the first offending value.", examples);
const audienceNotFound = error("audience_id not found or not owned by the caller.", e.audienceNotFoundExamples);
const rateLimited = (examples: Examples<unknown>) => ({
  description: "Rate limited. Honour Retry-After rather than retrying on a fixed interval.",
  headers: { "X-Request-Id": requestIdHeader, "Retry-After": { $ref: "#/components/headers/Retry-After" } },
  content: json("RateLimitedResponse", examples),
});

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the zod schemas (never written twice),
 * with the guide, tags, examples and code samples the docs page renders.
 * Deterministic: the same code gives the same document.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const samples = operationCodeSamples();
  return {
    openapi: "3.1.0",
    info: {
      title: "adrank: Ad Creative Ranking API",
      version: "1.1.0",
      summary: "Ranks ad creatives for a simulated audience persona and compares pairs with a blinded model panel.",
      description: INTRODUCTION,
    },
    servers: [{ url: "/", description: "This server" }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    paths: {
      "/api/v1/rank": {
        post: {
          operationId: "rankAssets",
          tags: [TAG.ranking],
          summary: "Rank creatives",
          description: "Score and rank 1 to 20 creatives for an audience persona and a goal. Costs 1 scoring evaluation per image-only asset and up to 2 per asset with `copy_context`.",
          requestBody: { required: true, content: json("RankRequest", rankRequestExamples) },
          responses: {
            "200": {
              description: "Ranked assets, per-asset errors and a summary. Per-asset failures are not HTTP errors.",
              headers: { "X-Request-Id": requestIdHeader, "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" } },
              content: json("RankResponse", rankResponseExamples),
            },
            "400": badRequest,
            "401": unauthenticated,
            "402": error("Insufficient credits for this batch.", e.rankInsufficientCreditsExamples),
            "404": audienceNotFound,
            "413": tooLarge,
            "422": invalid(e.rankValidationExamples),
            "429": rateLimited(e.rankRateLimitedExamples),
            "500": internal,
          },
          "x-codeSamples": samples.rankAssets,
        },
      },
      "/api/v1/pairwise": {
        post: {
          operationId: "compareCreativePairs",
          tags: [TAG.pairwise],
          summary: "Compare pairs with a panel",
          description: "Compare 1 to 10 explicit pairs, each with a panel of five blinded voters. Costs 1 credit per completed panel.",
          requestBody: { required: true, content: json("PairwiseRequest", pairwiseRequestExamples) },
          responses: {
            "200": { description: "Every vote and raw voter response, per pair.", headers: { "X-Request-Id": requestIdHeader }, content: json("PairwiseResponse", pairwiseResponseExamples) },
            "400": badRequest,
            "401": unauthenticated,
            "402": error("Insufficient credits for this batch.", e.pairwiseInsufficientCreditsExamples),
            "404": audienceNotFound,
            "413": tooLarge,
            "422": invalid(e.pairwiseValidationExamples),
            "429": rateLimited(e.pairwiseRateLimitedExamples),
            "500": internal,
            "503": error("No voter model is available or no voter is consuming.", e.votersUnavailableExamples, { "Retry-After": { $ref: "#/components/headers/Retry-After" } }),
          },
          "x-codeSamples": samples.compareCreativePairs,
        },
      },
      "/api/v1/audiences": {
        get: {
          operationId: "listAudiences",
          tags: [TAG.audiences],
          summary: "List saved audiences",
          description: "The saved audiences of the authenticated account, oldest first.",
          responses: {
            "200": { description: "The account's saved audiences.", headers: { "X-Request-Id": requestIdHeader }, content: json("AudienceList", audienceListExamples) },
            "401": unauthenticated,
            "500": internal,
          },
          "x-codeSamples": samples.listAudiences,
        },
        post: {
          operationId: "createAudience",
          tags: [TAG.audiences],
          summary: "Create a saved audience",
          description: "Save an audience persona; send the returned id as `audience_id` to rank and pairwise.",
          requestBody: { required: true, content: json("CreateAudienceRequest", createAudienceRequestExamples) },
          responses: {
            "201": { description: "The saved audience.", headers: { "X-Request-Id": requestIdHeader }, content: json("SavedAudience", savedAudienceExamples) },
            "400": badRequest,
            "401": unauthenticated,
            "413": tooLarge,
            "422": invalid(e.audienceValidationExamples),
            "500": internal,
          },
          "x-codeSamples": samples.createAudience,
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key starting with `agk_live_`, created in the account dashboard and shown once.",
        },
      },
      headers: {
        "X-Request-Id": { description: "The request id (uuid); equals request_id in the body.", schema: { type: "string", format: "uuid" } },
        "X-RateLimit-Remaining": { description: "Remaining scoring evaluations of this key in the current 60 s window.", schema: { type: "string" } },
        "Retry-After": { description: "Seconds to wait before retrying; on a 429 it equals retryAfter in the body.", schema: { type: "string" } },
        "WWW-Authenticate": { description: "The authentication scheme to use: Bearer.", schema: { type: "string" } },
      },
      schemas: componentSchemas(),
    },
  };
}
