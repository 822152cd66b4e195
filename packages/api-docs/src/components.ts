import { z } from "zod";
import {
  CreateAudienceRequest, AudienceList, SavedAudience, CopyContext, Demographics, InlineAudience, ErrorResponse,
  RateLimitedResponse, PairwiseAsset, PairwisePair, PairwiseRequest, PairwiseResult, PairwiseVote, ModelsUsed,
  PairwiseResponse, PairwiseSummary, RequestStatus, AssetInput, RankRequest, CalibrationGroup,
  CalibrationResponse, Estimate, MetricCalibration, OutcomeInput, RecordedOutcome, RecordOutcomesRequest,
  RecordOutcomesResponse, ClosePairRefinement, ClosePairResult, ConfidenceDetails, PanelOutcome, RankAssetError,
  RankedAsset, RankResponse, RankSummary, ScoreDetails, RankAudiencesRequest, SavedAudienceChoice, RankAudiencesResponse,
  AudienceRanking, AssetComparison, Reversal, AudienceSensitivity, RankAudiencesSummary,
} from "@adrank/contracts";

type Meta = { id: string };
type JsonSchema = Record<string, unknown>;

// Requests are documented as clients send them (defaults optional, aliases accepted);
// responses as the service returns them. Shared parts are named in both.
const requests = z.registry<Meta>();
for (const [id, schema] of Object.entries({
  RankRequest, AssetInput, CopyContext, InlineAudience, Demographics, RankAudiencesRequest, SavedAudienceChoice, PairwiseRequest, PairwisePair, PairwiseAsset,
  CreateAudienceRequest, RecordOutcomesRequest, OutcomeInput,
})) {
  requests.add(schema, { id });
}
const responses = z.registry<Meta>();
for (const [id, schema] of Object.entries({
  RankResponse, RankedAsset, PanelOutcome, ConfidenceDetails, ScoreDetails, RankAssetError, RankSummary, ClosePairRefinement, ClosePairResult,
  // The ids the schemas' own .meta gives them (Reversal is AudienceReversal).
  RankAudiencesResponse, AudienceRanking, AssetComparison, AudienceReversal: Reversal, AudienceSensitivity, RankAudiencesSummary,
  PairwiseResponse, PairwiseResult, PairwiseVote, PairwiseSummary, ModelsUsed, SavedAudience, AudienceList, ErrorResponse, RateLimitedResponse, RequestStatus,
  RecordOutcomesResponse, RecordedOutcome, CalibrationResponse, MetricCalibration, CalibrationGroup, Estimate,
})) {
  responses.add(schema, { id });
}

const uri = (id: string) => `#/components/schemas/${id}`;

/** Named component schemas in JSON Schema 2020-12, the dialect of OpenAPI 3.1. */
export function componentSchemas(): Record<string, JsonSchema> {
  const strip = (schemas: Record<string, JsonSchema>) =>
    Object.fromEntries(Object.entries(schemas).map(([id, s]) => {
      const { $schema: _s, $id: _i, id: _id, ...rest } = s;
      return [id, rest];
    }));
  const input = z.toJSONSchema(requests, { target: "draft-2020-12", io: "input", uri, unrepresentable: "any" }).schemas as Record<string, JsonSchema>;
  const output = z.toJSONSchema(responses, { target: "draft-2020-12", io: "output", uri, unrepresentable: "any" }).schemas as Record<string, JsonSchema>;
  return { ...strip(input), ...strip(output) };
}
