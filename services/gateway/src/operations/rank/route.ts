import type { FastifyInstance } from "fastify";
import { rankOperation, type RankOptions } from "./rank-operation.ts";

/** POST /api/v1/rank (operation rankAssets), run by the request lifecycle: plain, keyed or asynchronous. */
export default async function rankRoutes(app: FastifyInstance, opts: RankOptions) {
  app.addHook("onRequest", app.authenticate);
  app.post("/", app.lifecycle.route(rankOperation(app, opts)));
}
