import type { FastifyInstance } from "fastify";
import { PairwiseRequest } from "@adrank/contracts";
import { parseJsonBody } from "../../http/parse-body.ts";
import { validTraceparent } from "../../http/traceparent.ts";
import { clientGoneSignal } from "../shared/client-gone.ts";
import { resolveAudience } from "../shared/resolve-audience.ts";
import { runPairwise } from "./run-pairwise.ts";

export interface PairwiseRouteOptions {
  timeoutMs: number;
  ledgerTimeoutMs: number;
  presenceTimeoutMs: number;
  imageConcurrency: number;
  now: () => number;
}

/** POST /api/v1/pairwise (operation compareCreativePairs). */
export default async function pairwiseRoutes(app: FastifyInstance, opts: PairwiseRouteOptions) {
  app.addHook("onRequest", app.authenticate);

  app.post("/", async (request, reply) => {
    const caller = request.caller!;
    const body = parseJsonBody(PairwiseRequest, request.body);
    const audience = await resolveAudience(app.repos.audiences, caller.accountId, body);
    const { nc, js, topo, images } = app.bus;
    const result = await runPairwise(
      {
        nc,
        js,
        topo,
        ledger: app.ledger,
        intake: app.imageIntake,
        storeImage: (ref, bytes) => images.put(ref, bytes),
        imageConcurrency: opts.imageConcurrency,
        timeoutMs: opts.timeoutMs,
        ledgerTimeoutMs: opts.ledgerTimeoutMs,
        presenceTimeoutMs: opts.presenceTimeoutMs,
        now: opts.now,
        observe: (results, settledPanels) => {
          for (const r of results) app.gatewayMetrics.panels.inc({ source: "pairwise", status: r.status });
          app.gatewayMetrics.billed.inc({ kind: "pairwise" }, settledPanels);
        },
      },
      {
        requestId: request.id,
        caller,
        body,
        audience,
        receivedAt: request.receivedAt,
        clientGone: clientGoneSignal(reply),
        traceparent: validTraceparent(request.headers.traceparent),
        log: request.log,
      },
    );
    reply.header("X-RateLimit-Remaining", String(result.rateLimitRemaining));
    return result.body;
  });
}
