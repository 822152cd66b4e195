import type { OutcomeInput } from "@adrank/contracts";
import type { NewOutcome, StoredRequestResult } from "@adrank/db/repositories";
import { BodyValidationError, OutcomeRequestNotFoundError } from "../../errors/api-errors.ts";
import { readStoredRanking, type StoredRanking } from "./stored-ranking.ts";

const at = (i: number, key: keyof OutcomeInput) => `outcomes[${i}].${key}`;

/**
 * Pairs every outcome with the score its ranking gave the asset, in the order sent. The first
 * item that cannot be recorded ends it with a typed error naming its field, so nothing of the
 * batch is written: a request the account does not have (404), one that is no succeeded rank
 * (422 on request_id), an asset the ranking did not score (422 on asset_id).
 */
export function resolveOutcomes(items: readonly OutcomeInput[], requests: ReadonlyMap<string, StoredRequestResult>): NewOutcome[] {
  const rankings = new Map<string, StoredRanking>();
  const rankingOf = (request: StoredRequestResult, i: number): StoredRanking => {
    const known = rankings.get(request.requestId);
    if (known) return known;
    const field = at(i, "request_id");
    const id = request.requestId;
    if (request.operation === "pairwise") throw new BodyValidationError(`${field} ${id} is a pairwise request; outcomes are recorded against assets of rank requests (POST /api/v1/rank).`, field);
    // An outcome is one creative's result with the audience it ran for: a side-by-side ranking holds several audiences' scores for it, and no field says which one ran.
    if (request.operation !== "rank")
      throw new BodyValidationError(`${field} ${id} ranks several audiences side by side; record outcomes against a rank request (POST /api/v1/rank) for the audience the creative ran for.`, field);
    if (request.state === "running") throw new BodyValidationError(`${field} ${id} is still running; record its outcomes once it has succeeded.`, field);
    if (request.state === "failed" || request.resultBody === null) throw new BodyValidationError(`${field} ${id} failed, so it has no scores to compare outcomes with.`, field);
    const ranking = readStoredRanking(request.resultBody);
    rankings.set(id, ranking);
    return ranking;
  };

  return items.map((item, i) => {
    const request = requests.get(item.request_id);
    if (!request) throw new OutcomeRequestNotFoundError(item.request_id, at(i, "request_id"));
    const ranking = rankingOf(request, i);
    const field = at(i, "asset_id");
    const name = JSON.stringify(item.asset_id);
    const scores = ranking.ranked.get(item.asset_id) ?? [];
    if (scores.length === 0) {
      if (ranking.failed.has(item.asset_id)) throw new BodyValidationError(`${field} ${name} could not be scored in request ${item.request_id} (it is among its errors), so it has no score to compare.`, field);
      throw new BodyValidationError(`${field} ${name} is not the id of a ranked asset of request ${item.request_id}; use the id the asset was sent with.`, field);
    }
    if (scores.length > 1) throw new BodyValidationError(`${field} ${name} names ${scores.length} assets of request ${item.request_id}; an outcome needs an id that names one.`, field);
    const { score, scoreBeforeRefine, rank, pAboveNext } = scores[0]!;
    return {
      requestId: item.request_id,
      assetId: item.asset_id,
      metric: item.metric,
      value: item.value,
      impressions: item.impressions ?? null,
      goal: ranking.goal,
      score,
      scoreBeforeRefine,
      simulated: ranking.simulated,
      rank,
      pAboveNext,
      requestCreatedAt: request.createdAt,
    };
  });
}
