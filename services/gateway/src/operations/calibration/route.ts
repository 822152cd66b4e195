import type { FastifyInstance } from "fastify";
import type { CalibrationResponse } from "@adrank/contracts";
import { createCalibrationThread } from "@adrank/runtime";
import { parseCalibrationQuery } from "./calibration-query.ts";

/**
 * GET /api/v1/calibration (operation getCalibration): how well the caller's past scores
 * predicted the outcomes it recorded, per metric and goal, with bootstrap intervals and an
 * honest "not enough data" below the minimum (`calibrationReport` of @adrank/eval-stats, on
 * its own thread). Free, like every read.
 */
export default async function calibrationRoutes(app: FastifyInstance) {
  app.addHook("onRequest", app.authenticate);
  const thread = createCalibrationThread();
  app.addHook("onClose", () => thread.close());

  app.get("/", async (request): Promise<CalibrationResponse> => {
    const query = parseCalibrationQuery(request.query);
    return thread.report(await app.repos.outcomes.listForAccount(request.caller!.accountId, query));
  });
}
