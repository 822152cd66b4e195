import { describe, expect, it } from "vitest";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { PairwiseResponse, RankResponse } from "@adrank/contracts";
import { buildOpenApiDocument } from "../src/index.ts";
import { fullPairwiseResponse, fullRankResponse } from "./fixtures/responses.ts";

type Doc = {
  openapi: string;
  info: { version: string };
  security: unknown[];
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }> }>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; scheme: string }> };
};
const doc = buildOpenApiDocument() as unknown as Doc;

/** A validator over the document's own component schemas, as a client generator would use them. */
function schemaValidator(name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  const validateFn = ajv.compile({ $ref: `doc#/components/schemas/${name}` });
  return (value: unknown) => {
    const ok = validateFn(value);
    return { ok, errors: JSON.stringify(validateFn.errors) };
  };
}

describe("the OpenAPI document", () => {
  it("documents which models answered, and the simulated flag, on both summaries and on every vote", () => {
    const check = schemaValidator("ModelsUsed");
    expect(check({ generators: ["sim:sim-gen-a", "sim:sim-gen-b"], embedder: "sim:sim-embed", voters: ["sim:sim-voter"], simulated: true }).ok).toBe(true);
    // A summary cannot leave out whether it was simulated.
    expect(check({ generators: [], embedder: null, voters: [] }).ok).toBe(false);
    for (const summary of ["RankSummary", "PairwiseSummary"]) {
      const schema = doc.components.schemas[summary] as { properties: Record<string, { $ref?: string }>; required: string[] };
      expect(schema.properties.models?.$ref, summary).toBe("#/components/schemas/ModelsUsed");
    }
    const vote = doc.components.schemas.PairwiseVote as { properties: Record<string, unknown> };
    expect(Object.keys(vote.properties)).toEqual(expect.arrayContaining(["model", "simulated"]));
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
    // 1.2.0: Idempotency-Key, async and webhook_url, and getRequest; 1.3.0: recordOutcomes and
    // getCalibration; 1.4.0: summary.credits_status; 1.5.0: p_above_next, too_close_to_call, summary.uncertainty/warnings/method, win_probability, reliability;
    // 1.6.0: rankAcrossAudiences (POST /api/v1/rank/audiences) and the persona_made_no_difference warning; 1.7.0: reuse_evaluations,
    // ranked assets' `reused` and summary.evaluations_reused. Each is additive to v1.
    expect(doc.info.version).toBe("1.7.0");
  });

  it("names the operations and documents every status of the spec", () => {
    const rank = doc.paths["/api/v1/rank"]!.post!;
    const pairwise = doc.paths["/api/v1/pairwise"]!.post!;
    expect(rank.operationId).toBe("rankAssets");
    const rankAudiences = doc.paths["/api/v1/rank/audiences"]!.post!;
    expect(rankAudiences.operationId).toBe("rankAcrossAudiences");
    // Every status rank documents, and nothing else: the same gateway paths answer both.
    expect(Object.keys(rankAudiences.responses).sort()).toEqual(Object.keys(rank.responses).sort());
    expect(pairwise.operationId).toBe("compareCreativePairs");
    expect(Object.keys(rank.responses)).toEqual(expect.arrayContaining(["200", "202", "400", "401", "402", "404", "409", "422", "429", "500"]));
    expect(Object.keys(pairwise.responses)).toEqual(expect.arrayContaining(["200", "202", "400", "401", "402", "404", "409", "422", "429", "500", "503"]));
    expect(doc.paths["/api/v1/requests/{request_id}"]!.get!.operationId).toBe("getRequest");
    expect(doc.paths["/api/v1/audiences"]!.get!.operationId).toBe("listAudiences");
    expect(doc.paths["/api/v1/audiences"]!.post!.operationId).toBe("createAudience");
    const recordOutcomes = doc.paths["/api/v1/outcomes"]!.post!;
    const getCalibration = doc.paths["/api/v1/calibration"]!.get!;
    expect(recordOutcomes.operationId).toBe("recordOutcomes");
    expect(getCalibration.operationId).toBe("getCalibration");
    expect(Object.keys(recordOutcomes.responses).sort()).toEqual(["200", "400", "401", "404", "413", "422", "429", "500"]);
    expect(Object.keys(getCalibration.responses).sort()).toEqual(["200", "401", "422", "429", "500", "503"]);
  });

  it("declares the headers and bearer security", () => {
    const rank200 = doc.paths["/api/v1/rank"]!.post!.responses["200"]!;
    expect(Object.keys(rank200.headers!)).toEqual(expect.arrayContaining(["X-Request-Id", "X-RateLimit-Remaining"]));
    expect(Object.keys(doc.paths["/api/v1/rank"]!.post!.responses["429"]!.headers!)).toContain("Retry-After");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it("has named component schemas for every resource of the spec", () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        "RankRequest", "AssetInput", "CopyContext", "InlineAudience", "RankResponse", "RankedAsset", "PanelOutcome", "ConfidenceDetails", "ScoreDetails",
        "RankAssetError", "RankSummary", "PairwiseRequest", "PairwiseResponse", "PairwiseResult", "PairwiseVote", "PairwiseSummary", "ErrorResponse", "RateLimitedResponse", "RequestStatus",
        "RecordOutcomesRequest", "OutcomeInput", "RecordOutcomesResponse", "RecordedOutcome", "CalibrationResponse", "MetricCalibration", "CalibrationGroup", "Estimate",
        "RankAudiencesRequest", "SavedAudienceChoice", "RankAudiencesResponse", "AudienceRanking", "AssetComparison", "AudienceReversal", "AudienceSensitivity", "RankAudiencesSummary",
      ]),
    );
  });

  it("accepts a rank response that uses every response field, with unknown keys where clients must accept them", () => {
    const body = fullRankResponse();
    expect(RankResponse.safeParse(body).success).toBe(true);
    const check = schemaValidator("RankResponse")(body);
    expect(check.ok, check.errors).toBe(true);
  });

  it("refuses a rank response that breaks the contract", () => {
    const body = fullRankResponse();
    (body.ranked[0] as Record<string, unknown>).score = 7;
    expect(schemaValidator("RankResponse")(body).ok).toBe(false);
    const noSummary: Record<string, unknown> = fullRankResponse();
    delete noSummary.summary;
    expect(schemaValidator("RankResponse")(noSummary).ok).toBe(false);
  });

  it("accepts a pairwise response that uses every response field", () => {
    const body = fullPairwiseResponse();
    expect(PairwiseResponse.safeParse(body).success).toBe(true);
    const check = schemaValidator("PairwiseResponse")(body);
    expect(check.ok, check.errors).toBe(true);
  });

  it("documents requests as clients send them: a request with every field validates", () => {
    const check = schemaValidator("RankRequest")({
      assets: [{ url: "https://cdn.example.com/a.png", id: "a", asset_type: "Logo", copy_context: { headline: "Hi", extra: "x" } }],
      audience: { name: "x", description: "y", demographics: { ageRange: "18-24", other: "z" } },
      goal: "open-rate", asset_type: "Email Header", platform: "google", campaign_type: "shorts", refine_close_pairs: true,
    });
    expect(check.ok, check.errors).toBe(true);
    expect(schemaValidator("RankRequest")({ assets: [{ url: "https://x.example/a.png", extra: 1 }], audience_id: "a" }).ok).toBe(false);
    const asynchronous = schemaValidator("RankRequest")({ assets: [{ url: "https://x.example/a.png" }], audience_id: "a", async: true, webhook_url: "https://hooks.example.com/adrank" });
    expect(asynchronous.ok, asynchronous.errors).toBe(true);
  });

  it("documents every field an error body carries, 5xx included, and nothing else", () => {
    const check = schemaValidator("ErrorResponse");
    const requestId = "0b6c7f9e-4f3a-4d2b-9c1e-2a7d5e8f0a13";
    // The gateway's 500s (to-http.ts), its pairwise 503, and fastify's own 503 while a process drains.
    for (const body of [
      { error: "internal error", request_id: requestId },
      { error: "The service cannot reach its database right now; nothing was charged. Retry in a few seconds.", request_id: requestId },
      { error: "No voter is available right now; nothing was charged." },
      JSON.parse('{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}'),
      { error: "assets[0].url is required.", field: "assets[0].url" },
    ]) {
      const result = check(body);
      expect(result.ok, `${JSON.stringify(body)}: ${result.errors}`).toBe(true);
    }
    expect(check({ error: "internal error", stack: "at Pool.connect" }).ok).toBe(false);
    expect(check({ error: "internal error", request_id: "not-a-uuid" }).ok).toBe(false);
    const properties = (doc.components.schemas.ErrorResponse as { properties: Record<string, { description?: string }> }).properties;
    for (const [name, property] of Object.entries(properties)) expect(property.description, name).toBeTruthy();
    expect(schemaValidator("RateLimitedResponse")({ error: "Slow down.", retryAfter: 3, resetAt: 1_900_000_000 }).ok).toBe(true);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(buildOpenApiDocument()));
  });
});
