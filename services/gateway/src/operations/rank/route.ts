import type { FastifyInstance } from "fastify";
import { RankRequest } from "@adrank/contracts";
import { planRank, type ClosePairRefiner } from "@adrank/rank-assembly";
import { parseJsonBody } from "../../http/parse-body.ts";
import { operationCall, operationDeps, type MeteredRouteOptions } from "../shared/operation-context.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { runRank } from "./run-rank.ts";

export interface RankRouteOptions extends MeteredRouteOptions {
  assetConcurrency: number;
  refiner: ClosePairRefiner;
}

/** POST /api/v1/rank (operation rankAssets). */
export default async function rankRoutes(app: FastifyInstance, opts: RankRouteOptions) {
  app.addHook("onRequest", app.authenticate);

  app.post("/", async (request, reply) => {
    const body = parseJsonBody(RankRequest, request.body);
    const audience = await resolveAudience(app.repos.audiences, request.caller!.accountId, body);
    const plan = planRank(body, audience);
    const result = await runRank({ ...operationDeps(app, opts), refiner: opts.refiner, assetConcurrency: opts.assetConcurrency }, { ...operationCall(request, reply), plan });
    app.gatewayMetrics.billed.inc({ kind: "scoring" }, result.body.summary.scoring_evaluations);
    reply.header("X-RateLimit-Remaining", String(result.rateLimitRemaining));
    return result.body;
  });
}
