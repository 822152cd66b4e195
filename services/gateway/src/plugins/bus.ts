import fp from "fastify-plugin";
import type { JetStreamClient } from "@nats-io/jetstream";
import { startResultRouter, type ImageStore, type NatsConnection, type ResultRouter, type Topology } from "@adrank/messaging";

export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  topo: Topology;
  images: ImageStore;
  /** The one subscription every job result of this gateway arrives on (result-router.ts). */
  results: ResultRouter;
}

declare module "fastify" {
  interface FastifyInstance {
    bus: Bus;
  }
}

/** What main (or a test) opens: the router is the app's own unless one is given. */
export type BusConnections = Omit<Bus, "results"> & { results?: ResultRouter };

/**
 * NATS, JetStream, the shared image store and the result router, shared by every route. A
 * router this plugin starts is closed with the app, after in-flight requests have ended
 * (onClose hooks run in reverse order of registration, and the bus is registered first).
 */
export default fp(
  async (app, opts: { bus: BusConnections }) => {
    const results = opts.bus.results ?? startResultRouter(opts.bus.nc, opts.bus.topo, { log: app.log });
    app.decorate("bus", { ...opts.bus, results });
    if (!opts.bus.results) app.addHook("onClose", async () => results.close());
  },
  { name: "bus" },
);
