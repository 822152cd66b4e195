import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type HttpResult } from "../support/http.ts";
import { responseValidator } from "../support/openapi-validator.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Observed outcomes and calibration against the real services: two accounts rank creatives
// with the sim model, record what those creatives "did", and read back how well the scores
// predicted it. Each account sees only its own rankings and outcomes; a batch is recorded
// whole or not at all, and sending it again changes nothing.

const audience = { name: "Weekend cyclists", description: "Looking for a commuter bike" };
/** A private address the gateway refuses to fetch: that asset ends in `errors`, the others rank. */
const REFUSED_URL = "https://10.0.0.1/ad.png";

interface Ranked {
  asset_id: string;
  score: number;
  score_before_refine: number;
}
interface Ranking {
  requestId: string;
  goal: string;
  ranked: Ranked[];
}
interface Outcome {
  request_id: string;
  asset_id: string;
  metric: string;
  value: number;
  impressions?: number;
}

/**
 * Made-up click-through rates by rank (best score first) that mostly follow the scores: the
 * bottom two are swapped, so 5 of each ranking's 6 pairs agree.
 */
const CTR_BY_RANK = [0.041, 0.034, 0.012, 0.027];

/** Pairwise agreement as the API defines it: pairs of one ranking with different outcomes, a score tie counting half. */
function expectedAgreement(points: Array<{ stratum: string; score: number; outcome: number }>): number {
  let agree = 0;
  let pairs = 0;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const [p, q] = [points[i]!, points[j]!];
      if (p.stratum !== q.stratum || p.outcome === q.outcome) continue;
      pairs++;
      const s = Math.sign(p.score - q.score) * Math.sign(p.outcome - q.outcome);
      agree += s > 0 ? 1 : s === 0 ? 0.5 : 0;
    }
  }
  return agree / pairs;
}

describe("outcomes and calibration: two accounts, idempotent atomic batches, figures", () => {
  let stack: Stack;
  let validator: ReturnType<typeof responseValidator>;
  let first: Account;
  let second: Account;
  /** Account 1: two purchase-intent rankings and one engagement ranking (with a failed asset). */
  let rankings: Ranking[];
  let secondRanking: Ranking;

  const conforms = (operationId: string, res: HttpResult): HttpResult => {
    expect(validator.check(operationId, res.status, res.body), JSON.stringify(res.body).slice(0, 600)).toBeNull();
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    return res;
  };
  const record = async (account: Account, outcomes: unknown) => conforms("recordOutcomes", await call(stack.baseUrl, "POST", "/api/v1/outcomes", { key: account.key, json: { outcomes } }));
  const calibration = async (account: Account, query = "") => conforms("getCalibration", await call(stack.baseUrl, "GET", `/api/v1/calibration${query}`, { key: account.key }));
  const refused = (res: HttpResult, status: number, field: string | undefined) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.field).toBe(field);
    return res.body.error as string;
  };
  const available = async (accountId: string) => {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };

  async function rankCreatives(account: Account, variants: number[], goal: string, extra: Array<{ url: string; id: string }> = []): Promise<Ranking> {
    const assets = [...variants.map((v, i) => ({ url: creative(v), id: `c${i + 1}` })), ...extra];
    const res = await call(stack.baseUrl, "POST", "/api/v1/rank", { key: account.key, json: { assets, audience, goal, refine_close_pairs: false } });
    expect(res.status, stack.output()).toBe(200);
    return { requestId: res.body.request_id, goal, ranked: res.body.ranked };
  }
  const outcomesOf = (r: Ranking, metric = "ctr"): Outcome[] => r.ranked.map((a, i) => ({ request_id: r.requestId, asset_id: a.asset_id, metric, value: CTR_BY_RANK[i]!, impressions: 5_000 }));

  beforeAll(async () => {
    // Slow sim answers keep an asynchronous request running long enough to be refused as such.
    stack = await startStack({ scorerEnv: { SIM_LATENCY_MS: "150" } });
    validator = responseValidator((await call(stack.baseUrl, "GET", "/api/v1/openapi.json")).body);
    first = await stack.createAccountDirect({ credits: 200 });
    second = await stack.createAccountDirect({ credits: 200 });
    rankings = [
      await rankCreatives(first, [3, 8, 14, 21], "purchase-intent"),
      await rankCreatives(first, [5, 11, 17, 26], "purchase-intent"),
      await rankCreatives(first, [7, 12, 19, 30], "engagement", [{ url: REFUSED_URL, id: "broken" }]),
    ];
    secondRanking = await rankCreatives(second, [4, 9, 15, 22], "purchase-intent");
    // The creatives score differently, so the figures have something to measure.
    for (const r of rankings) expect(new Set(r.ranked.map((a) => a.score)).size).toBeGreaterThan(1);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it("records outcomes with their ranking's scores, free of charge; the same batch again is all unchanged, a new value is updated", async () => {
    const credits = await available(first.accountId);
    const batch = rankings.flatMap((r) => outcomesOf(r));
    expect(batch).toHaveLength(12);

    const created = await record(first, batch);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ created: 12, updated: 0, unchanged: 0 });
    for (const [i, o] of created.body.outcomes.entries()) {
      const ranking = rankings.find((r) => r.requestId === batch[i]!.request_id)!;
      const asset = ranking.ranked.find((a) => a.asset_id === batch[i]!.asset_id)!;
      expect(o).toMatchObject({ ...batch[i], goal: ranking.goal, score: asset.score, score_before_refine: asset.score_before_refine, simulated: true, change: "created" });
    }
    const before = (await calibration(first)).body;

    const again = await record(first, batch);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 12 });
    expect(again.body.outcomes.map((o: { recorded_at: string }) => o.recorded_at)).toEqual(created.body.outcomes.map((o: { recorded_at: string }) => o.recorded_at));
    expect((await calibration(first)).body).toEqual(before);

    const changed = await record(first, [{ ...batch[0]!, value: 0.5 }, batch[1]]);
    expect(changed.body).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(changed.body.outcomes.map((o: { change: string }) => o.change)).toEqual(["updated", "unchanged"]);
    // Back to the original value for the figures below.
    expect((await record(first, [batch[0]])).body).toMatchObject({ updated: 1 });
    expect((await calibration(first)).body).toEqual(before);

    expect(await available(first.accountId)).toBe(credits);
  });

  it("keeps accounts apart: another account's request_id is 404, its calibration does not see these outcomes, the same ids and metric do not collide", async () => {
    const firstReport = (await calibration(first)).body;
    const foreign = await record(second, [{ request_id: rankings[0]!.requestId, asset_id: "c1", metric: "ctr", value: 9 }]);
    expect(refused(foreign, 404, "outcomes[0].request_id")).toContain(rankings[0]!.requestId);
    expect((await calibration(second)).body).toEqual({ min_outcomes: 10, resamples: 1000, metrics: [] });

    // Account 2 records under its own ranking the same asset ids (c1..c4) and metric: its own rows.
    const own = await record(second, outcomesOf(secondRanking).map((o) => ({ ...o, value: o.value * 10 })));
    expect(own.body).toMatchObject({ created: 4, unchanged: 0 });
    const secondReport = (await calibration(second)).body;
    expect(secondReport.metrics.map((m: { metric: string; pooled: { n_outcomes: number } }) => [m.metric, m.pooled.n_outcomes])).toEqual([["ctr", 4]]);
    expect((await calibration(first)).body).toEqual(firstReport);
  });

  it("records nothing of a batch with one bad item", async () => {
    const good = { request_id: rankings[0]!.requestId, asset_id: "c1", metric: "add_to_cart", value: 0.004 };
    refused(await record(first, [good, { ...good, asset_id: "c9" }]), 422, "outcomes[1].asset_id");
    refused(await record(first, [good, { ...good, metric: "purchases", request_id: randomUUID() }]), 404, "outcomes[1].request_id");
    const metrics = (await calibration(first)).body.metrics.map((m: { metric: string }) => m.metric);
    expect(metrics).toEqual(["ctr"]);
  });

  it("refuses each outcome that cannot be recorded, naming its field", async () => {
    const ranked = rankings[2]!;
    const ok = { request_id: ranked.requestId, asset_id: "c1", metric: "ctr", value: 0.1 };

    const pair = await call(stack.baseUrl, "POST", "/api/v1/pairwise", { key: first.key, json: { pairs: [{ pair_id: "p", a: { id: "c1", image_url: creative(3) }, b: { id: "c2", image_url: creative(8) } }], audience } });
    expect(pair.status, stack.output()).toBe(200);
    expect(refused(await record(first, [{ ...ok, request_id: pair.body.request_id }]), 422, "outcomes[0].request_id")).toMatch(/pairwise/);

    const accepted = await call(stack.baseUrl, "POST", "/api/v1/rank", { key: first.key, json: { assets: [40, 41, 42, 43, 44, 45].map((v, i) => ({ url: creative(v), id: `c${i + 1}` })), audience, async: true, refine_close_pairs: false } });
    expect(accepted.status, stack.output()).toBe(202);
    expect(refused(await record(first, [{ ...ok, request_id: accepted.body.request_id }]), 422, "outcomes[0].request_id")).toMatch(/still running/);

    expect(refused(await record(first, [{ ...ok, asset_id: "broken" }]), 422, "outcomes[0].asset_id")).toMatch(/could not be scored/);
    expect(refused(await record(first, [{ ...ok, asset_id: "c5" }]), 422, "outcomes[0].asset_id")).toMatch(/not the id of a ranked asset/);
    refused(await record(first, [{ ...ok, request_id: randomUUID() }]), 404, "outcomes[0].request_id");
    expect(refused(await record(first, [ok, { ...ok, value: 0.2 }]), 422, "outcomes[1].metric")).toMatch(/repeats outcomes\[0\]/);
    refused(await record(first, [{ ...ok, metric: "Click rate" }]), 422, "outcomes[0].metric");
    refused(await record(first, [{ ...ok, impressions: -5 }]), 422, "outcomes[0].impressions");
    refused(await record(first, [{ ...ok, clicks: 4 }]), 422, "outcomes[0].clicks");
    refused(await record(first, [{ ...ok, request_id: "not-a-uuid" }]), 422, "outcomes[0].request_id");
    refused(await record(first, []), 422, "outcomes");

    const raw = (text: string) => call(stack.baseUrl, "POST", "/api/v1/outcomes", { key: first.key, raw: text, contentType: "application/json" });
    refused(conforms("recordOutcomes", await raw(`{"outcomes":[{"request_id":"${ranked.requestId}","asset_id":"c1","metric":"ctr","value":1e400}]}`)), 422, "outcomes[0].value");
    refused(conforms("recordOutcomes", await raw(`{"outcomes":[`)), 400, undefined);
    expect((await call(stack.baseUrl, "POST", "/api/v1/outcomes", { json: { outcomes: [ok] } })).status).toBe(401);

    // None of it was recorded: the ctr of c1 is still the one of the first test.
    const report = (await calibration(first, "?goal=engagement")).body;
    expect(report.metrics[0].pooled.n_outcomes).toBe(4);
  });

  it("gives no figures below 10 outcomes, and at 12 figures whose pairwise agreement is the one the scores and outcomes make", async () => {
    const res = await calibration(first);
    expect(res.status).toBe(200);
    const [ctr] = res.body.metrics;
    expect(ctr.metric).toBe("ctr");
    expect(ctr.pooled).toMatchObject({ goal: null, n_outcomes: 12, n_requests: 3, n_simulated: 12, impressions: 60_000, enough_data: true });
    for (const name of ["spearman_rho", "kendall_tau_b", "pairwise_agreement", "pairwise_agreement_raw"]) {
      const figure = ctr.pooled[name];
      expect(figure, name).not.toBeNull();
      expect(figure.ci_low, name).toBeLessThanOrEqual(figure.value);
      expect(figure.value, name).toBeLessThanOrEqual(figure.ci_high);
    }
    for (const name of ["pairwise_agreement", "pairwise_agreement_raw"]) {
      expect(ctr.pooled[name].ci_low).toBeGreaterThanOrEqual(0);
      expect(ctr.pooled[name].ci_high).toBeLessThanOrEqual(1);
    }
    const points = rankings.flatMap((r) => r.ranked.map((a, i) => ({ stratum: r.requestId, score: a.score, outcome: CTR_BY_RANK[i]! })));
    expect(ctr.pooled.pairwise_agreement.value).toBeCloseTo(expectedAgreement(points), 4);
    // Without score ties that is 15 of 18 pairs; the scores beat chance (0.5) and rho is positive.
    expect(ctr.pooled.pairwise_agreement.value).toBeGreaterThan(0.5);
    expect(ctr.pooled.spearman_rho.value).toBeGreaterThan(0);
    expect(ctr.pooled.n_pairs).toBe(18);

    // Per goal: 8 and 4 outcomes, below the minimum of 10: no figures, said plainly.
    expect(ctr.goals.map((g: { goal: string; n_outcomes: number; enough_data: boolean; spearman_rho: unknown }) => [g.goal, g.n_outcomes, g.enough_data, g.spearman_rho])).toEqual([
      ["engagement", 4, false, null],
      ["purchase-intent", 8, false, null],
    ]);

    const onlyPurchase = (await calibration(first, "?goal=purchase-intent")).body;
    expect(onlyPurchase.metrics.map((m: { pooled: { n_outcomes: number; enough_data: boolean } }) => [m.pooled.n_outcomes, m.pooled.enough_data])).toEqual([[8, false]]);
    expect((await calibration(first, "?metric=ctr")).body).toEqual(res.body);
    expect((await calibration(first, "?metric=conversion_rate")).body.metrics).toEqual([]);
  });

  it("answers 422 naming an unknown or invalid query parameter", async () => {
    refused(await calibration(first, "?metrics=ctr"), 422, "metrics");
    refused(await calibration(first, "?goal=virality"), 422, "goal");
    refused(await calibration(first, "?metric=CTR"), 422, "metric");
    expect((await call(stack.baseUrl, "GET", "/api/v1/calibration")).status).toBe(401);
  });
});
