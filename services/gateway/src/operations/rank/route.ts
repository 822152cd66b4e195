import type { FastifyInstance } from "fastify";
import { rankWork, type RankRouteOptions } from "./rank-work.ts";

export type { RankRouteOptions };

/** POST /api/v1/rank (operation rankAssets): synchronous, idempotent with a key, or asynchronous (durable/). */
export default async function rankRoutes(app: FastifyInstance, opts: RankRouteOptions) {
  app.addHook("onRequest", app.authenticate);
  app.durable.register("rank", rankWork(app, opts));
  app.post("/", (request, reply) => app.durable.serve(request, reply, "rank"));
}
