import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { validTraceparent } from "../../http/traceparent.ts";
import { clientGoneSignal } from "./client-gone.ts";

/** The limits a metered route is registered with. */
export interface MeteredRouteOptions {
  timeoutMs: number;
  ledgerTimeoutMs: number;
  now: () => number;
}

/** What every metered operation takes from the app: the bus, the ledger, image intake, its limits. */
export function operationDeps(app: FastifyInstance, opts: MeteredRouteOptions) {
  const { nc, js, topo, images } = app.bus;
  return {
    nc,
    js,
    topo,
    ledger: app.ledger,
    intake: app.imageIntake,
    storeImage: (ref: string, bytes: Uint8Array) => images.put(ref, bytes),
    timeoutMs: opts.timeoutMs,
    ledgerTimeoutMs: opts.ledgerTimeoutMs,
    now: opts.now,
  };
}

/** What every metered operation takes from the request: who calls, since when, whether it is still there. */
export function operationCall(request: FastifyRequest, reply: FastifyReply) {
  return {
    requestId: request.id,
    caller: request.caller!,
    receivedAt: request.receivedAt,
    clientGone: clientGoneSignal(reply),
    traceparent: validTraceparent(request.headers.traceparent),
    log: request.log,
  };
}
