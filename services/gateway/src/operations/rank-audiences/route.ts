import type { FastifyInstance } from "fastify";
import type { RankOptions } from "../rank/rank-operation.ts";
import { rankAudiencesOperation } from "./rank-audiences-operation.ts";

/** POST /api/v1/rank/audiences (operation rankAcrossAudiences), run by the request lifecycle: plain, keyed or asynchronous. */
export default async function rankAudiencesRoutes(app: FastifyInstance, opts: RankOptions) {
  app.addHook("onRequest", app.authenticate);
  app.post("/", app.lifecycle.route(rankAudiencesOperation(app, opts)));
}
