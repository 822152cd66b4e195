import type { FastifyInstance } from "fastify";
import { PairwiseRequest } from "@adrank/contracts";
import type { WorkFactory } from "../../durable/work.ts";
import { parseJsonBody } from "../../http/parse-body.ts";
import { operationDeps, type MeteredRouteOptions } from "../shared/operation-context.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { runPairwise } from "./run-pairwise.ts";

export interface PairwiseRouteOptions extends MeteredRouteOptions {
  presenceTimeoutMs: number;
  imageConcurrency: number;
}

/** A raw pairwise body as work: validated (400/422) and its audience resolved (404). */
export function pairwiseWork(app: FastifyInstance, opts: PairwiseRouteOptions): WorkFactory {
  return async (raw, caller) => {
    const body = parseJsonBody(PairwiseRequest, raw);
    const audience = await resolveAudience(app.repos.audiences, caller.accountId, body);
    return {
      operation: "pairwise",
      kind: "pairwise",
      units: body.pairs.length,
      unit: "pairs",
      total: body.pairs.length,
      async: body.async,
      webhookUrl: body.webhook_url,
      run: (call) =>
        runPairwise(
          {
            ...operationDeps(app, opts),
            imageConcurrency: opts.imageConcurrency,
            presenceTimeoutMs: opts.presenceTimeoutMs,
            observe: (results, settledPanels) => {
              for (const r of results) app.gatewayMetrics.panels.inc({ source: "pairwise", status: r.status });
              app.gatewayMetrics.billed.inc({ kind: "pairwise" }, settledPanels);
            },
          },
          { ...call, caller, body, audience },
        ),
    };
  };
}
