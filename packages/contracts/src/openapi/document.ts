import { componentSchemas } from "./components.ts";

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string) => ({ "application/json": { schema: ref(id) } });

const requestIdHeader = { $ref: "#/components/headers/X-Request-Id" };
const error = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { "X-Request-Id": requestIdHeader, ...extraHeaders },
  content: json("ErrorResponse"),
});
const commonErrors = {
  "400": error("The body is not JSON, or not sent as application/json."),
  "401": error("Missing or invalid API key."),
  "413": error("The body is larger than 25 MiB."),
  "422": error("Validation error: the body breaks the schema. `field` names the first offending value."),
  "500": error("Unexpected internal failure. The body never carries internal details; it carries request_id to quote when reporting it."),
};
const rateLimited = {
  description: "Rate limited. Honour Retry-After rather than retrying on a fixed interval.",
  headers: { "X-Request-Id": requestIdHeader, "Retry-After": { $ref: "#/components/headers/Retry-After" } },
  content: json("RateLimitedResponse"),
};

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the zod schemas (never written twice).
 * Deterministic: the same code gives the same document.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Ad Creative Ranking API",
      version: "1.1.0",
      description:
        "Ranks ad creatives (images, optionally with ad copy) for a simulated audience persona, and compares pairs of creatives with a panel of five blinded model voters. Scores are relative within one batch for a fixed goal and audience; they are not conversion probabilities or forecasts.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    paths: {
      "/api/v1/rank": {
        post: {
          operationId: "rankAssets",
          summary: "Score and rank 1 to 20 creatives for an audience persona.",
          requestBody: { required: true, content: json("RankRequest") },
          responses: {
            "200": {
              description: "Ranked assets, per-asset errors and a summary. Per-asset failures are not HTTP errors.",
              headers: { "X-Request-Id": requestIdHeader, "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" } },
              content: json("RankResponse"),
            },
            ...commonErrors,
            "402": error("Insufficient credits for this batch."),
            "404": error("audience_id not found or not owned by the caller."),
            "429": rateLimited,
          },
        },
      },
      "/api/v1/pairwise": {
        post: {
          operationId: "compareCreativePairs",
          summary: "Compare 1 to 10 explicit pairs with a five-voter blinded panel each.",
          requestBody: { required: true, content: json("PairwiseRequest") },
          responses: {
            "200": { description: "Every vote and raw voter response, per pair.", headers: { "X-Request-Id": requestIdHeader }, content: json("PairwiseResponse") },
            ...commonErrors,
            "402": error("Insufficient credits for this batch."),
            "404": error("audience_id not found or not owned by the caller."),
            "429": rateLimited,
            "503": error("No voter model is available or no voter is consuming."),
          },
        },
      },
      "/api/v1/audiences": {
        get: {
          operationId: "listAudiences",
          summary: "List the saved audiences of the authenticated account (additive to v1).",
          responses: {
            "200": { description: "The account's saved audiences, newest first.", headers: { "X-Request-Id": requestIdHeader }, content: json("AudienceList") },
            "401": commonErrors["401"],
            "500": commonErrors["500"],
          },
        },
        post: {
          operationId: "createAudience",
          summary: "Save an audience for use as audience_id (additive to v1).",
          requestBody: { required: true, content: json("CreateAudienceRequest") },
          responses: {
            "201": { description: "The saved audience.", headers: { "X-Request-Id": requestIdHeader }, content: json("SavedAudience") },
            ...commonErrors,
          },
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
        "Retry-After": { description: "Seconds to wait; equals retryAfter in the body.", schema: { type: "string" } },
      },
      schemas: componentSchemas(),
    },
  };
}
