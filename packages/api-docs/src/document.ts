import { z } from "zod";
import {
  BEYOND_NOISE_PROBABILITY, CALIBRATION_OUTCOMES_READ_MAX, CalibrationQuery, LIMITS, OUTCOME_METRICS_PER_ACCOUNT, OUTCOMES_PER_ACCOUNT,
  OUTCOMES_PER_REQUEST_MAX, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_CHARS, IDEMPOTENCY_KEY_TTL_HOURS,
  REQUEST_RETENTION_DAYS,
} from "@adrank/contracts";
import { componentSchemas } from "./components.ts";
import { operationCodeSamples } from "./code-samples/operation-samples.ts";
import { audienceListExamples, createAudienceRequestExamples, savedAudienceExamples } from "./examples/audiences.ts";
import { calibrationResponseExamples } from "./examples/calibration.ts";
import * as errorExamples from "./examples/errors.ts";
import type { Examples } from "./examples/named-example.ts";
import { EXAMPLE_METRIC, recordOutcomesRequestExamples, recordOutcomesResponseExamples } from "./examples/outcomes.ts";
import { pairwiseRequestExamples, pairwiseResponseExamples } from "./examples/pairwise.ts";
import { rankRequestExamples, rankResponseExamples } from "./examples/rank.ts";
import { rankAudiencesRequestExamples, rankAudiencesResponseExamples } from "./examples/rank-audiences.ts";
import {
  ASYNC_RANK_ID,
  pairwiseAcceptedExamples,
  rankAcceptedExamples,
  rankAudiencesAcceptedExamples,
  requestNotFoundExamples,
  requestResultExamples,
  requestRunningExamples,
  requestStillRunningExamples,
} from "./examples/requests.ts";
import { INTRODUCTION } from "./guide/introduction.ts";
import { KEY_EVALUATIONS_PER_MINUTE } from "./key-rate-limit.ts";
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
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const replayed = { "Idempotent-Replayed": header("Idempotent-Replayed") };
/** The 202 of POST with `async: true`: the request's status, and where to fetch it. */
const accepted = (examples: Examples<unknown>) => ({
  description: "Accepted (`async: true`): the request runs on the server. Fetch it from Location until it has finished. Credits were reserved and the rate limit counted before this answer.",
  headers: { "X-Request-Id": requestIdHeader, Location: header("Location"), "Retry-After": header("Retry-After"), ...replayed },
  content: json("RequestStatus", examples),
});
const stillRunning = error(
  "A request with the same Idempotency-Key is still running, after this repeat waited for it as long as the operation may take. Retry with the same key after Retry-After seconds; `request_id` names the running request.",
  requestStillRunningExamples,
  { "Retry-After": header("Retry-After") },
);
const idempotencyKey = { $ref: `#/components/parameters/${IDEMPOTENCY_KEY_HEADER}` };
/** The query parameters of a strict zod object, each documented from its schema (optional ones not required). */
const queryParameters = (query: z.ZodObject, examples: Record<string, string>) =>
  Object.entries(query.shape).map(([name, schema]) => {
    const { description, ...rest } = z.toJSONSchema(schema as z.ZodType, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    const { $schema: _s, ...parameterSchema } = rest;
    return { name, in: "query", required: !(schema as z.ZodType).safeParse(undefined).success, description, schema: parameterSchema, ...(name in examples ? { example: examples[name] } : {}) };
  });
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
      version: "1.7.0",
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
          description:
            "Score and rank 1 to 20 creatives for an audience persona and a goal. Costs 1 scoring evaluation per image-only asset and up to 2 per asset with `copy_context`. With `async: true` the answer is `202` at once and the result is fetched with getRequest; with an Idempotency-Key a retry is answered with the first response.",
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json("RankRequest", rankRequestExamples) },
          responses: {
            "200": {
              description: "Ranked assets, per-asset errors and a summary. Per-asset failures are not HTTP errors.",
              headers: { "X-Request-Id": requestIdHeader, "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" }, ...replayed },
              content: json("RankResponse", rankResponseExamples),
            },
            "202": accepted(rankAcceptedExamples),
            "400": badRequest,
            "401": unauthenticated,
            "402": error("Insufficient credits for this batch.", e.rankInsufficientCreditsExamples),
            "404": audienceNotFound,
            "409": stillRunning,
            "413": tooLarge,
            "422": invalid(e.rankValidationExamples),
            "429": rateLimited(e.rankRateLimitedExamples),
            "500": internal,
          },
          "x-codeSamples": samples.rankAssets,
        },
      },
      "/api/v1/rank/audiences": {
        post: {
          operationId: "rankAcrossAudiences",
          tags: [TAG.ranking],
          summary: "Rank creatives for several audiences",
          description: [
            `Rank one set of 1 to ${LIMITS.assetsMax} creatives for ${LIMITS.audiencesMin} to ${LIMITS.audiencesMax} audiences, each inline or saved (\`{ "audience_id": "…" }\`), with names unique regardless of case and surrounding spaces. \`by_audience\` holds each audience's ranking, exactly what POST /api/v1/rank answers for that audience alone; the response adds \`comparison\` (each creative under every audience), \`reversals\` (pairs whose order flips between two audiences, each order beyond the repetitions' noise at a one-sided probability of ${BEYOND_NOISE_PROBABILITY} or more), \`audience_sensitivity\` (per pair of audiences, including \`persona_made_no_difference\`) and a \`summary\` summed over audiences.`,
            `Every evaluation counts as in rank: each creative once per audience, up to 2 evaluations for one with \`copy_context\`, against credits and the key's rate limit. A request whose evaluations could exceed one minute of the key's rate limit (${KEY_EVALUATIONS_PER_MINUTE}) is refused with \`422\` (\`field\`: \`audiences\`). The images are fetched and prepared once for all audiences. With \`async: true\` the answer is \`202\` at once and the result is fetched with getRequest; with an Idempotency-Key a retry is answered with the first response.`,
          ].join("\n\n"),
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json("RankAudiencesRequest", rankAudiencesRequestExamples) },
          responses: {
            "200": {
              description: "One ranking per audience, where they disagree, and a summary over them. Per-asset failures are not HTTP errors.",
              headers: { "X-Request-Id": requestIdHeader, "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" }, ...replayed },
              content: json("RankAudiencesResponse", rankAudiencesResponseExamples),
            },
            "202": accepted(rankAudiencesAcceptedExamples),
            "400": badRequest,
            "401": unauthenticated,
            "402": error("Insufficient credits for this batch: every creative for every audience.", e.rankAudiencesInsufficientCreditsExamples),
            "404": error("An audience_id of the list not found or not owned by the caller; `field` names it.", e.rankAudiencesAudienceNotFoundExamples),
            "409": stillRunning,
            "413": tooLarge,
            "422": invalid(e.rankAudiencesValidationExamples),
            "429": rateLimited(e.rankRateLimitedExamples),
            "500": internal,
          },
          "x-codeSamples": samples.rankAcrossAudiences,
        },
      },
      "/api/v1/pairwise": {
        post: {
          operationId: "compareCreativePairs",
          tags: [TAG.pairwise],
          summary: "Compare pairs with a panel",
          description:
            "Compare 1 to 10 explicit pairs, each with a panel of five blinded voters. Costs 1 credit per completed panel. With `async: true` the answer is `202` at once and the result is fetched with getRequest; with an Idempotency-Key a retry is answered with the first response.",
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json("PairwiseRequest", pairwiseRequestExamples) },
          responses: {
            "200": { description: "Every vote and raw voter response, per pair.", headers: { "X-Request-Id": requestIdHeader, ...replayed }, content: json("PairwiseResponse", pairwiseResponseExamples) },
            "202": accepted(pairwiseAcceptedExamples),
            "400": badRequest,
            "401": unauthenticated,
            "402": error("Insufficient credits for this batch.", e.pairwiseInsufficientCreditsExamples),
            "404": audienceNotFound,
            "409": stillRunning,
            "413": tooLarge,
            "422": invalid(e.pairwiseValidationExamples),
            "429": rateLimited(e.pairwiseRateLimitedExamples),
            "500": internal,
            "503": error("No voter model is available or no voter is consuming.", e.votersUnavailableExamples, { "Retry-After": { $ref: "#/components/headers/Retry-After" } }),
          },
          "x-codeSamples": samples.compareCreativePairs,
        },
      },
      "/api/v1/requests/{request_id}": {
        get: {
          operationId: "getRequest",
          tags: [TAG.requests],
          summary: "Fetch a request",
          description: `A rank, rank-across-audiences or pairwise request of this account, by its request_id, for at least ${REQUEST_RETENTION_DAYS} days: its result once it succeeded (byte for byte what the POST answered, or would have answered), its progress while it runs. The curl sample reads the id from \`$REQUEST_ID\`: the request_id of a 202, or of any response; the SDK and CLI samples start an asynchronous ranking and follow it.`,
          parameters: [
            {
              name: "request_id",
              in: "path",
              required: true,
              description: "The request's id: `request_id` in its response body, or its `X-Request-Id` header.",
              schema: { type: "string", format: "uuid" },
              example: ASYNC_RANK_ID,
            },
          ],
          responses: {
            "200": {
              description: "The request has finished. Succeeded: its result, a RankResponse, PairwiseResponse or RankAudiencesResponse. Failed (asynchronous requests): its RequestStatus with `status: \"failed\"` and `error`.",
              headers: { "X-Request-Id": requestIdHeader },
              content: { "application/json": { schema: { oneOf: [ref("RankResponse"), ref("PairwiseResponse"), ref("RankAudiencesResponse"), ref("RequestStatus")] }, examples: requestResultExamples } },
            },
            "202": {
              description: "Still running: its status and progress. Ask again after Retry-After seconds.",
              headers: { "X-Request-Id": requestIdHeader, "Retry-After": header("Retry-After") },
              content: json("RequestStatus", requestRunningExamples),
            },
            "401": unauthenticated,
            "404": error("No request with this id for this account: unknown, malformed, older than its retention, or of another account.", requestNotFoundExamples),
            "500": internal,
          },
          "x-codeSamples": samples.getRequest,
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
          description: "Save an audience persona; send the returned id as `audience_id` to rank and pairwise, or as `{ \"audience_id\": \"…\" }` in the audiences of rankAcrossAudiences.",
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
      "/api/v1/outcomes": {
        post: {
          operationId: "recordOutcomes",
          tags: [TAG.evaluation],
          summary: "Record outcomes",
          description: `Record what ranked creatives did once they ran: 1 to ${OUTCOMES_PER_REQUEST_MAX} outcomes, each for an asset a succeeded ranking of this account ranked, identified by the ranking's \`request_id\` and the asset's \`asset_id\`. Each (request_id, asset_id, metric) keeps one value: a new value replaces it, the same one changes nothing, so sending a batch again is safe. The batch is atomic: if any outcome is refused, none is recorded. Costs no credits; an account stores at most ${OUTCOMES_PER_ACCOUNT.toLocaleString("en-US")} outcomes under at most ${OUTCOME_METRICS_PER_ACCOUNT} metric names (a batch beyond them is a \`422\`), and records at most 60 batches per minute (\`429\`). The curl sample records outcomes for the ranking whose id is in \`$REQUEST_ID\`.`,
          requestBody: { required: true, content: json("RecordOutcomesRequest", recordOutcomesRequestExamples) },
          responses: {
            "200": { description: "Every outcome recorded (or already recorded), in the order sent, with the score it is compared with.", headers: { "X-Request-Id": requestIdHeader }, content: json("RecordOutcomesResponse", recordOutcomesResponseExamples) },
            "400": badRequest,
            "401": unauthenticated,
            "404": error("A request_id is unknown, of another account, or older than its retention. `field` names it; nothing was recorded.", e.outcomeRequestNotFoundExamples),
            "413": error(`The body is larger than ${e.OUTCOMES_BODY_LIMIT}.`, e.outcomesBodyTooLargeExamples),
            "422": invalid(e.recordOutcomesValidationExamples),
            "429": rateLimited(e.outcomesRateLimitedExamples),
            "500": internal,
          },
          "x-codeSamples": samples.recordOutcomes,
        },
      },
      "/api/v1/calibration": {
        get: {
          operationId: "getCalibration",
          tags: [TAG.evaluation],
          summary: "Get calibration",
          description: `How well this account's past scores predicted the outcomes it recorded: per metric, per goal and pooled over goals, Spearman's rho, Kendall's tau-b and pairwise agreement (final and raw scores), each with a 95 % bootstrap interval, or \`enough_data: false\` and null figures below \`min_outcomes\`; and \`reliability\`, how often pairs of neighbouring creatives came out in the order their rankings' \`p_above_next\` favoured. Costs no credits. A report reads at most the ${CALIBRATION_OUTCOMES_READ_MAX.toLocaleString("en-US")} most recently recorded outcomes (\`truncated\` says when there were more), runs one at a time per account and at most 30 times per minute (\`429\`), within a time limit (\`503\`).`,
          parameters: queryParameters(CalibrationQuery, { metric: EXAMPLE_METRIC }),
          responses: {
            "200": { description: "The figures of every recorded metric (or only of the metric and goal asked for), by metric, then goal.", headers: { "X-Request-Id": requestIdHeader }, content: json("CalibrationResponse", calibrationResponseExamples) },
            "401": unauthenticated,
            "422": error("A query parameter is invalid or unknown. `field` names it.", e.calibrationValidationExamples),
            "429": rateLimited(e.calibrationRateLimitedExamples),
            "500": internal,
            "503": error("The report did not finish within its time limit (10 s by default). Nothing changed; retry after Retry-After, or narrow it with `metric` or `goal`.", e.calibrationTimeoutExamples, { "Retry-After": header("Retry-After") }),
          },
          "x-codeSamples": samples.getCalibration,
        },
      },
    },
    components: {
      parameters: {
        [IDEMPOTENCY_KEY_HEADER]: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: "header",
          required: false,
          description: [
            `Makes the request safe to retry: 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} visible ASCII characters, new for each request (a UUID is a good choice). Keys belong to the account.`,
            `Within ${IDEMPOTENCY_KEY_TTL_HOURS} hours, a repeat with the same key, the same operation and the same body (compared as JSON: key order and white space do not matter) is answered with the first response, byte for byte, with \`Idempotent-Replayed: true\` and the first request's X-Request-Id; it is never billed again.`,
            "While the first request still runs, the repeat waits for it (up to 120 s), then answers `409` with `Retry-After`. If the server running it stopped, the repeat takes the request over under the same request_id, billed once.",
            "The same key with a different body or on the other operation, or a malformed key, is refused with `422` (`field`: `Idempotency-Key`). Requests refused before any work, and 500s, are not remembered: a retry with the same key runs them.",
          ].join("\n\n"),
          // No example: the docs page's Test request would send that one key on every try.
          schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_CHARS, pattern: "^[\\x21-\\x7E]+$" },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key starting with `agk_live_`, created in the account dashboard and shown once.",
        },
      },
      headers: {
        "X-Request-Id": { description: "The request id (uuid); equals request_id in the body.", schema: { type: "string", format: "uuid" } },
        "X-RateLimit-Remaining": { description: "Remaining scoring evaluations of this key in the current 60 s window, or of its account (all its keys together) when that is less.", schema: { type: "string" } },
        "Retry-After": { description: "Seconds to wait before retrying (or, on a 202, before asking for the request again); on a 429 it equals retryAfter in the body.", schema: { type: "string" } },
        "WWW-Authenticate": { description: "The authentication scheme to use: Bearer.", schema: { type: "string" } },
        Location: { description: "Where the request's status and result are fetched: /api/v1/requests/{request_id}.", schema: { type: "string" } },
        "Idempotent-Replayed": {
          description: "`true` when this is the stored response of an earlier request with the same Idempotency-Key, replayed byte for byte (X-Request-Id is that request's). Absent otherwise.",
          schema: { type: "string", enum: ["true"] },
        },
      },
      schemas: componentSchemas(),
    },
  };
}
