import type { FastifyInstance } from "fastify";
import { RankRequest } from "@adrank/contracts";
import { planRank, type ClosePairRefiner } from "@adrank/rank-assembly";
import { parseJsonBody } from "../../http/parse-body.ts";
import { validTraceparent } from "../../http/traceparent.ts";
import { clientGoneSignal } from "../shared/client-gone.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { runRank } from "./run-rank.ts";

export interface RankRouteOptions {
  timeoutMs: number;
  ledgerTimeoutMs: number;
  assetConcurrency: number;
  refiner: ClosePairRefiner;
  now: () => number;
}

/** POST /api/v1/rank (operation rankAssets). */
export default async function rankRoutes(app: FastifyInstance, opts: RankRouteOptions) {
  app.addHook("onRequest", app.authenticate);

  app.post("/", async (request, reply) => {
    const caller = request.caller!;
    const body = parseJsonBody(RankRequest, request.body);
    const audience = await resolveAudience(app.repos.audiences, caller.accountId, body);
    const plan = planRank(body, audience);
    const { nc, js, topo, images } = app.bus;
    const result = await runRank(
      {
        nc,
        js,
        topo,
        ledger: app.ledger,
        intake: app.imageIntake,
        storeImage: (ref, bytes) => images.put(ref, bytes),
        refiner: opts.refiner,
        assetConcurrency: opts.assetConcurrency,
        timeoutMs: opts.timeoutMs,
        ledgerTimeoutMs: opts.ledgerTimeoutMs,
        now: opts.now,
      },
      {
        requestId: request.id,
        caller,
        plan,
        receivedAt: request.receivedAt,
        clientGone: clientGoneSignal(reply),
        traceparent: validTraceparent(request.headers.traceparent),
        log: request.log,
      },
    );
    app.gatewayMetrics.billed.inc({ kind: "scoring" }, result.body.summary.scoring_evaluations);
    reply.header("X-RateLimit-Remaining", String(result.rateLimitRemaining));
    return result.body;
  });
}
