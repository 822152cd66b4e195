import type { FastifyInstance } from "fastify";
import { pairwiseWork, type PairwiseRouteOptions } from "./pairwise-work.ts";

export type { PairwiseRouteOptions };

/** POST /api/v1/pairwise (operation compareCreativePairs): synchronous, idempotent with a key, or asynchronous (durable/). */
export default async function pairwiseRoutes(app: FastifyInstance, opts: PairwiseRouteOptions) {
  app.addHook("onRequest", app.authenticate);
  app.durable.register("pairwise", pairwiseWork(app, opts));
  app.post("/", (request, reply) => app.durable.serve(request, reply, "pairwise"));
}
