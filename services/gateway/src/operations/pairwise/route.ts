import type { FastifyInstance } from "fastify";
import { pairwiseOperation, type PairwiseOptions } from "./pairwise-operation.ts";

/** POST /api/v1/pairwise (operation compareCreativePairs), run by the request lifecycle: plain, keyed or asynchronous. */
export default async function pairwiseRoutes(app: FastifyInstance, opts: PairwiseOptions) {
  app.addHook("onRequest", app.authenticate);
  app.post("/", app.lifecycle.route(pairwiseOperation(app, opts)));
}
