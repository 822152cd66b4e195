import type { FastifyInstance } from "fastify";
import { PairwiseRequest } from "@adrank/contracts";
import { parseJsonBody } from "../../http/parse-body.ts";
import { operationCall, operationDeps, type MeteredRouteOptions } from "../shared/operation-context.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { runPairwise } from "./run-pairwise.ts";

export interface PairwiseRouteOptions extends MeteredRouteOptions {
  presenceTimeoutMs: number;
  imageConcurrency: number;
}

/** POST /api/v1/pairwise (operation compareCreativePairs). */
export default async function pairwiseRoutes(app: FastifyInstance, opts: PairwiseRouteOptions) {
  app.addHook("onRequest", app.authenticate);

  app.post("/", async (request, reply) => {
    const body = parseJsonBody(PairwiseRequest, request.body);
    const audience = await resolveAudience(app.repos.audiences, request.caller!.accountId, body);
    const result = await runPairwise(
      {
        ...operationDeps(app, opts),
        imageConcurrency: opts.imageConcurrency,
        presenceTimeoutMs: opts.presenceTimeoutMs,
        observe: (results, settledPanels) => {
          for (const r of results) app.gatewayMetrics.panels.inc({ source: "pairwise", status: r.status });
          app.gatewayMetrics.billed.inc({ kind: "pairwise" }, settledPanels);
        },
      },
      { ...operationCall(request, reply), body, audience },
    );
    reply.header("X-RateLimit-Remaining", String(result.rateLimitRemaining));
    return result.body;
  });
}
