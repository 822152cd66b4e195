import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { CALIBRATION_MIN_OUTCOMES, CalibrationResponse } from "@adrank/contracts";
import { outcomesRepository, type NewOutcome } from "@adrank/db/repositories";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { calibrationReport } from "@adrank/eval-stats";
import type { FastifyInstance } from "fastify";
import { buildTestConsole } from "./support/test-console.ts";
import { CALIBRATION_POINTS_MAX } from "../src/routes/calibration.ts";

// The console's calibration route on a real Postgres schema. Outcomes are written with the
// gateway's own repository, as POST /api/v1/outcomes writes them.

let database: TestDatabase;
let app: FastifyInstance;
let outcomes: ReturnType<typeof outcomesRepository>;

beforeAll(async () => {
  database = await createTestDatabase("dashcal");
  outcomes = outcomesRepository(database.db);
  app = await buildTestConsole(database.db);
});
afterAll(async () => {
  await app?.close();
  await database?.destroy();
});

interface PageBody {
  metrics: string[];
  metric: string | null;
  goals: string[];
  goal: string | null;
  report: CalibrationResponse;
  points: Array<{ request_id: string; asset_id: string; goal: string; score: number; score_before_refine: number; value: number; simulated: boolean }>;
  points_total: number;
  points_truncated: boolean;
}

async function signUp(email: string) {
  const res = await app.inject({ method: "POST", url: "/console/api/signup", payload: { email, password: "a long password" } });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = String(res.headers["set-cookie"]).split(";")[0]!;
  const me = (await app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).json<{ accountId: string }>();
  const get = (query = "") => app.inject({ method: "GET", url: `/console/api/calibration${query}`, headers: { cookie } });
  return { accountId: me.accountId, get, page: async (query = "") => (await get(query)).json<PageBody>() };
}

/**
 * `perRanking` rankings of `size` assets each, for one metric and goal: asset i of a ranking
 * scores 2 + i / 10 and its outcome is `outcomeOf(i)`.
 */
function rankings(opts: { metric: string; goal: string; perRanking: number; size: number; outcomeOf: (i: number) => number; simulated?: boolean }): NewOutcome[] {
  return Array.from({ length: opts.perRanking }, () => randomUUID()).flatMap((requestId) =>
    Array.from({ length: opts.size }, (_, i) => ({
      requestId,
      assetId: `asset-${i}`,
      metric: opts.metric,
      value: opts.outcomeOf(i),
      impressions: 1_000,
      goal: opts.goal,
      score: 2 + i / 10,
      scoreBeforeRefine: 2 + i / 10,
      simulated: opts.simulated ?? false,
      rank: null,
      pAboveNext: null,
      requestCreatedAt: new Date(),
    })),
  );
}

describe("calibration in the console", () => {
  it("answers 401 without a session", async () => {
    expect((await app.inject({ method: "GET", url: "/console/api/calibration" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/console/api/calibration?metric=ctr" })).statusCode).toBe(401);
  });

  it("says nothing is recorded yet, with the minimum it will need", async () => {
    const user = await signUp("calibration-empty@example.com");
    const res = await user.get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ metrics: [], metric: null, goals: [], goal: null, report: { min_outcomes: CALIBRATION_MIN_OUTCOMES, resamples: 1_000, metrics: [] }, points: [], points_total: 0, points_truncated: false });
  });

  it("refuses a query the public API would refuse, naming the parameter", async () => {
    const user = await signUp("calibration-422@example.com");
    for (const [query, field] of [["?metric=CTR", "metric"], ["?goal=world-peace", "goal"], ["?metrc=ctr", "metrc"], ["?metric=ctr&metric=cvr", "metric"]] as const) {
      const res = await user.get(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().field, query).toBe(field);
      expect(res.json().error, query).toEqual(expect.any(String));
    }
  });

  it("shows each account only its own outcomes: figures per goal, the first metric by default, and the points", async () => {
    const owner = await signUp("calibration-owner@example.com");
    const other = await signUp("calibration-other@example.com");
    // Owner: ctr rises with the score in every ranking (12 outcomes: figures), and 7 cvr outcomes of engagement (too few).
    await outcomes.record(owner.accountId, rankings({ metric: "ctr", goal: "purchase-intent", perRanking: 3, size: 4, outcomeOf: (i) => 0.01 * (i + 1) }));
    await outcomes.record(owner.accountId, rankings({ metric: "ctr", goal: "engagement", perRanking: 1, size: 7, outcomeOf: (i) => i }));
    await outcomes.record(owner.accountId, rankings({ metric: "cvr", goal: "engagement", perRanking: 1, size: 7, outcomeOf: (i) => i }));
    // The other account: ctr falls with the score, and only its rows may reach its page.
    await outcomes.record(other.accountId, rankings({ metric: "ctr", goal: "purchase-intent", perRanking: 3, size: 5, outcomeOf: (i) => 1 - i / 10, simulated: true }));

    const page = await owner.page();
    expect(page.metrics).toEqual(["ctr", "cvr"]);
    expect(page.metric).toBe("ctr");
    expect(page.goals).toEqual(["engagement", "purchase-intent"]);
    expect(page.goal).toBeNull();
    expect(CalibrationResponse.safeParse(page.report).success).toBe(true);
    const [ctr] = page.report.metrics;
    expect(page.report.metrics).toHaveLength(1);
    expect(ctr!.metric).toBe("ctr");
    expect(ctr!.pooled).toMatchObject({ goal: null, n_outcomes: 19, n_requests: 4, n_simulated: 0, impressions: 19_000, enough_data: true });
    const [engagement, purchase] = ctr!.goals;
    expect(engagement).toMatchObject({ goal: "engagement", n_outcomes: 7, n_requests: 1, enough_data: false, spearman_rho: null, pairwise_agreement: null });
    // Outcomes that rise with the score: perfect rank correlation and agreement.
    expect(purchase).toMatchObject({ goal: "purchase-intent", n_outcomes: 12, n_requests: 3, n_pairs: 18, enough_data: true });
    expect(purchase!.spearman_rho!.value).toBeCloseTo(1, 10);
    expect(purchase!.kendall_tau_b!.value).toBeCloseTo(1, 10);
    expect(purchase!.pairwise_agreement!.value).toBe(1);
    // The figures are GET /api/v1/calibration's: the same function over the same rows.
    expect(page.report).toEqual(calibrationReport(await outcomes.listForAccount(owner.accountId, { metric: "ctr" })));
    expect(page.points).toHaveLength(19);
    expect(new Set(page.points.map((p) => p.goal))).toEqual(new Set(["engagement", "purchase-intent"]));
    expect(page.points_total).toBe(19);
    expect(page.points_truncated).toBe(false);
    const top = page.points.find((p) => p.goal === "purchase-intent" && p.asset_id === "asset-3")!;
    expect(top).toMatchObject({ score: 2.3, score_before_refine: 2.3, value: 0.04, simulated: false });

    const cvr = await owner.page("?metric=cvr");
    expect(cvr.metric).toBe("cvr");
    expect(cvr.goals).toEqual(["engagement"]);
    expect(cvr.report.metrics.map((m) => m.metric)).toEqual(["cvr"]);
    expect(cvr.points).toHaveLength(7);

    const onlyEngagement = await owner.page("?metric=ctr&goal=engagement");
    expect(onlyEngagement.goal).toBe("engagement");
    expect(onlyEngagement.goals).toEqual(["engagement", "purchase-intent"]);
    expect(onlyEngagement.report.metrics[0]!.goals.map((g) => g.goal)).toEqual(["engagement"]);
    expect(onlyEngagement.points.every((p) => p.goal === "engagement")).toBe(true);

    const theirs = await other.page();
    expect(theirs.metrics).toEqual(["ctr"]);
    expect(theirs.goals).toEqual(["purchase-intent"]);
    expect(theirs.report.metrics[0]!.pooled).toMatchObject({ n_outcomes: 15, n_requests: 3, n_simulated: 15 });
    expect(theirs.report.metrics[0]!.pooled.spearman_rho!.value).toBeCloseTo(-1, 10);
    expect(theirs.points.every((p) => p.simulated)).toBe(true);
    expect(theirs.points.some((p) => p.value === 0.04)).toBe(false);
    // A metric only the owner recorded reads as empty for the other account.
    const notTheirs = await other.page("?metric=cvr");
    expect(notTheirs.report.metrics).toEqual([]);
    expect(notTheirs.points).toEqual([]);
  });

  it(`plots at most ${CALIBRATION_POINTS_MAX} outcomes, the most recently recorded, and says so; the figures use them all`, async () => {
    const user = await signUp("calibration-many@example.com");
    const rows = rankings({ metric: "ctr", goal: "engagement", perRanking: 201, size: 10, outcomeOf: (i) => i });
    await outcomes.record(user.accountId, rows.slice(0, 500));
    await outcomes.record(user.accountId, rows.slice(500, 1_000));
    await outcomes.record(user.accountId, rows.slice(1_000, 1_500));
    await outcomes.record(user.accountId, rows.slice(1_500));
    // The first ranking's outcomes were recorded long ago: they are the ones left out.
    const oldest = rows[0]!.requestId;
    await database.db.updateTable("outcomes").set({ updated_at: new Date("2020-01-01T00:00:00Z") }).where("request_id", "=", oldest).execute();

    const page = await user.page();
    expect(page.points_total).toBe(2_010);
    expect(page.points).toHaveLength(CALIBRATION_POINTS_MAX);
    expect(page.points_truncated).toBe(true);
    expect(page.points.some((p) => p.request_id === oldest)).toBe(false);
    expect(page.report.metrics[0]!.pooled.n_outcomes).toBe(2_010);
  }, 60_000);
});
