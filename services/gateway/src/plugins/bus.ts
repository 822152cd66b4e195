import fp from "fastify-plugin";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { ImageStore, NatsConnection, Topology } from "@adrank/messaging";

export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  topo: Topology;
  images: ImageStore;
}

declare module "fastify" {
  interface FastifyInstance {
    bus: Bus;
  }
}

/** NATS, JetStream and the shared image store, opened by main (or a test) and shared by every route. */
export default fp(
  async (app, opts: { bus: Bus }) => {
    app.decorate("bus", opts.bus);
  },
  { name: "bus" },
);
