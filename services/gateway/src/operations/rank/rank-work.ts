import type { FastifyInstance } from "fastify";
import { RankRequest } from "@adrank/contracts";
import { inSpan } from "@adrank/telemetry";
import { planRank, type ClosePairRefiner } from "@adrank/rank-assembly";
import type { WorkFactory } from "../../durable/work.ts";
import { parseJsonBody } from "../../http/parse-body.ts";
import { operationDeps, type MeteredRouteOptions } from "../shared/operation-context.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { runRank } from "./run-rank.ts";

export interface RankRouteOptions extends MeteredRouteOptions {
  assetConcurrency: number;
  refiner: ClosePairRefiner;
}

/** A raw rank body as work: validated (400/422), its audience resolved (404), its batch planned. */
export function rankWork(app: FastifyInstance, opts: RankRouteOptions): WorkFactory {
  return async (raw, caller) => {
    const { body, plan } = await inSpan("validate rank request", {}, async () => {
      const body = parseJsonBody(RankRequest, raw);
      const audience = await resolveAudience(app.repos.audiences, caller.accountId, body);
      return { body, plan: planRank(body, audience) };
    });
    return {
      operation: "rank",
      kind: "scoring",
      units: plan.maxEvaluations,
      unit: "assets",
      total: plan.assets.length,
      async: body.async,
      webhookUrl: body.webhook_url,
      run: async (call) => {
        const result = await runRank(
          { ...operationDeps(app, opts), refiner: opts.refiner, assetConcurrency: opts.assetConcurrency },
          { ...call, caller, plan },
        );
        app.gatewayMetrics.billed.inc({ kind: "scoring" }, result.body.summary.scoring_evaluations);
        return result;
      },
    };
  };
}
