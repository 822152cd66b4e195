import type { FastifyInstance } from "fastify";
import { CalibrationQuery, parseWith } from "@adrank/contracts";
import type { OutcomeRecord } from "@adrank/db/repositories";
import { createCalibrationThread } from "@adrank/runtime";
import type { Repos } from "../deps.ts";
import { requireUser } from "../require-user.ts";

/** The scatter plot shows at most this many outcomes, the most recently recorded: more would not be readable, nor quick. */
export const CALIBRATION_POINTS_MAX = 2_000;

const pointView = (o: OutcomeRecord) => ({
  request_id: o.requestId,
  asset_id: o.assetId,
  goal: o.goal,
  score: o.score,
  score_before_refine: o.scoreBeforeRefine,
  value: o.value,
  simulated: o.simulated,
});

const distinctSorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * How well the account's past scores predicted the outcomes it recorded, for one metric: the
 * figures of GET /api/v1/calibration (the same function over the same rows) and the outcomes
 * themselves for the scatter plot, with the metrics and goals the page can switch to.
 */
export async function calibrationRoutes(app: FastifyInstance, { repos }: { repos: Repos }) {
  // The bootstrap takes about a second per few thousand outcomes: off the console's event loop.
  const thread = createCalibrationThread();
  app.addHook("onClose", () => thread.close());
  app.get("/calibration", { preHandler: requireUser }, async (request, reply) => {
    const parsed = parseWith(CalibrationQuery, request.query);
    if (!parsed.ok) return reply.code(parsed.error.status).send(parsed.error.body);
    const accountId = request.user!.accountId;
    const everything = await repos.outcomes.listForAccount(accountId);
    const metrics = distinctSorted(everything.map((o) => o.metric));
    // One metric at a time, so its figures and its points are read side by side.
    const metric = parsed.value.metric ?? metrics[0] ?? null;
    const goal = parsed.value.goal ?? null;
    // The rows GET /api/v1/calibration reads for this metric and goal, so the page shows the API's numbers.
    const rows = everything.filter((o) => o.metric === metric && (goal === null || o.goal === goal));
    const newestFirst = [...rows].sort((a, b) => b.recordedAt.getTime() - a.recordedAt.getTime());
    return {
      metrics,
      metric,
      goals: distinctSorted(everything.filter((o) => o.metric === metric).map((o) => o.goal)),
      goal,
      report: await thread.report(rows),
      points: newestFirst.slice(0, CALIBRATION_POINTS_MAX).map(pointView),
      points_total: rows.length,
      points_truncated: rows.length > CALIBRATION_POINTS_MAX,
    };
  });
}
