import type { FastifyInstance } from "fastify";
import { CALIBRATION_OUTCOMES_READ_MAX, CalibrationQuery, parseWith } from "@adrank/contracts";
import type { OutcomeRecord } from "@adrank/db/repositories";
import { CalibrationTimeoutError, createCalibrationThread } from "@adrank/runtime";
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
 * The same bounds as GET /api/v1/calibration: the report reads the most recently recorded
 * outcomes up to the API's maximum, its query is cancelled by the database after 4 s, and the
 * whole report ends within 10 s, so one account's outcomes cannot hold the console's thread.
 */
const REPORT_QUERY_TIMEOUT_MS = 4_000;
const REPORT_TIMEOUT_MS = 10_000;

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
    const deadlineAt = Date.now() + REPORT_TIMEOUT_MS;
    const pairs = await repos.outcomes.listMetricGoals(accountId);
    const metrics = distinctSorted(pairs.map((p) => p.metric));
    // One metric at a time, so its figures and its points are read side by side.
    const metric = parsed.value.metric ?? metrics[0] ?? null;
    const goal = parsed.value.goal ?? null;
    // The rows GET /api/v1/calibration reads for this metric and goal (newest first, bounded), so the page shows the API's numbers.
    const read = metric === null ? { rows: [], truncated: false } : await repos.outcomes.readForCalibration(accountId, { metric, ...(goal === null ? {} : { goal }) }, { limit: CALIBRATION_OUTCOMES_READ_MAX, timeoutMs: REPORT_QUERY_TIMEOUT_MS });
    let report;
    try {
      report = await thread.report(read.rows, { deadlineAt });
    } catch (err) {
      if (!(err instanceof CalibrationTimeoutError)) throw err;
      return reply.code(503).header("retry-after", "5").send({ error: `The calibration report took longer than ${REPORT_TIMEOUT_MS / 1000} s and was given up; try again in a moment.` });
    }
    return {
      metrics,
      metric,
      goals: distinctSorted(pairs.filter((p) => p.metric === metric).map((p) => p.goal)),
      goal,
      report: read.truncated ? { ...report, truncated: true } : report,
      points: read.rows.slice(0, CALIBRATION_POINTS_MAX).map(pointView),
      points_total: read.rows.length,
      points_truncated: read.rows.length > CALIBRATION_POINTS_MAX,
    };
  });
}
