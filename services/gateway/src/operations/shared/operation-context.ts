import type { FastifyInstance } from "fastify";

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
