import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSelfSignedCert } from "../../packages/images/test/support/self-signed-cert.ts";
import { startTestHttpsServer, type TestHttpsServer } from "../../packages/images/test/support/test-https-server.ts";
import { call, rank, type HttpResult } from "../support/http.ts";
import { readAccountEvents } from "../support/ledger-events.ts";
import { responseValidator } from "../support/openapi-validator.ts";
import { missingServices, REPO_ROOT } from "../support/paths.ts";
import { startStack, type Stack } from "../support/stack.ts";

// Issue 35 end to end: the example creatives ranked for three audiences side by side. Each
// audience's ranking is the one a plain rank request for it gives (same scores); the sim's
// persona rules (docs/sim-personas.md) predict a reversal between a price-sensitive and a
// sceptical audience, and two audiences with the same persona are flagged as making no
// difference. Billing is one reservation and one settlement of assets × audiences × layers; a
// request larger than one rate window is a 422 that costs nothing; an image is fetched once for
// all audiences. Every body is checked against the served OpenAPI document.

const missing = missingServices(["gateway", "ledger", "scorer", "refinement", "panel-voter"]);
if (missing.length > 0) console.warn(`rank-audiences.e2e.spec.ts SKIPPED: ${missing.join(", ")} not in this checkout yet.`);

const png = (name: string) => readFileSync(join(REPO_ROOT, "examples/ads", `${name}.png`));
const dataUri = (name: string) => `data:image/png;base64,${png(name).toString("base64")}`;

// examples/audiences-copy.json gives each creative one cue the persona rules read (a discount,
// sweeping claims, neither) and examples/audiences.json three audiences: a price-sensitive one,
// a sceptical one, and the same sceptical persona under another name, which the sim must score
// exactly alike. The README's side-by-side example runs these same files.
const COPY = JSON.parse(readFileSync(join(REPO_ROOT, "examples/audiences-copy.json"), "utf8")) as Record<string, { headline: string; body: string }>;
const EXAMPLES = ["spring-sale", "summer-launch", "autumn-promo"];
const assets = EXAMPLES.map((id) => ({ url: dataUri(id), id, copy_context: COPY[`${id}.png`]! }));
type Audience = { name: string; description: string; demographics: Record<string, string> };
const [BARGAIN, SKEPTICS, SKEPTICS_TWIN] = JSON.parse(readFileSync(join(REPO_ROOT, "examples/audiences.json"), "utf8")) as [Audience, Audience, Audience];

const scoresOf = (ranking: { ranked: Array<{ asset_id: string; rank: number; score: number; score_before_refine: number }> }) =>
  Object.fromEntries(ranking.ranked.map((r) => [r.asset_id, { rank: r.rank, score: r.score, score_before_refine: r.score_before_refine }]));

describe.skipIf(missing.length > 0)("audiences side by side: POST /api/v1/rank/audiences", () => {
  let stack: Stack;
  let validator: ReturnType<typeof responseValidator>;
  const conforms = (operationId: string, res: HttpResult): HttpResult => {
    expect(validator.check(operationId, res.status, res.body), `${operationId} ${res.status}: ${JSON.stringify(res.body).slice(0, 600)}`).toBeNull();
    return res;
  };
  const rankAudiences = (key: string, json: unknown, headers: Record<string, string> = {}) => call(stack.baseUrl, "POST", "/api/v1/rank/audiences", { key, json, headers });
  const available = async (accountId: string) => {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };

  beforeAll(async () => {
    stack = await startStack({ gatewayEnv: { RANK_TIMEOUT_MS: "60000" } });
    const doc = await call(stack.baseUrl, "GET", "/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    validator = responseValidator(doc.body);
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it("ranks each audience exactly as a plain rank for it alone, finds the reversal the persona rules predict, and flags two identical personas", async () => {
    const account = await stack.createAccount({ credits: 200 });
    const res = conforms("rankAcrossAudiences", await rankAudiences(account.key, { assets, audiences: [BARGAIN, SKEPTICS, SKEPTICS_TWIN], goal: "purchase-intent" }));
    expect(res.status, stack.output()).toBe(200);
    const body = res.body;
    expect(body.by_audience.map((a: { audience: string }) => a.audience)).toEqual([BARGAIN.name, SKEPTICS.name, SKEPTICS_TWIN.name]);

    // Each audience's ranking is the plain rank's for that audience: same order, same scores.
    for (const [k, audience] of [BARGAIN, SKEPTICS, SKEPTICS_TWIN].entries()) {
      const plain = conforms("rankAssets", await rank(stack.baseUrl, account.key, { assets, audience, goal: "purchase-intent" }));
      expect(plain.status).toBe(200);
      expect(scoresOf(body.by_audience[k]), audience.name).toEqual(scoresOf(plain.body));
      expect(body.by_audience[k].summary.scoring_evaluations).toBe(plain.body.summary.scoring_evaluations);
      expect(body.by_audience[k].summary.audience).toBe(audience.name);
    }

    // The persona rules: a discount wins a price-sensitive audience, sweeping claims lose a sceptical one.
    const reversal = body.reversals.find((r: { asset_a: { asset_id: string }; asset_b: { asset_id: string } }) => r.asset_a.asset_id === "spring-sale" && r.asset_b.asset_id === "summer-launch");
    expect(reversal, JSON.stringify(body.comparison)).toBeDefined();
    expect(reversal.prefers_a.audience).toBe(BARGAIN.name);
    expect([SKEPTICS.name, SKEPTICS_TWIN.name]).toContain(reversal.prefers_b.audience);
    const bargain = scoresOf(body.by_audience[0]);
    expect(reversal.prefers_a.score_a).toBe(bargain["spring-sale"]!.score_before_refine);
    expect(reversal.prefers_a.score_b).toBe(bargain["summer-launch"]!.score_before_refine);
    expect(reversal.prefers_a.gap).toBeCloseTo(reversal.prefers_a.score_a - reversal.prefers_a.score_b, 10);
    expect(reversal.prefers_b.gap).toBeCloseTo(reversal.prefers_b.score_b - reversal.prefers_b.score_a, 10);
    expect(reversal.prefers_a.p_order).toBeGreaterThanOrEqual(0.95);
    expect(reversal.prefers_b.p_order).toBeGreaterThanOrEqual(0.95);
    // Two audiences with one persona never reverse each other.
    expect(body.reversals.every((r: { prefers_a: { audience: string }; prefers_b: { audience: string } }) => !(r.prefers_a.audience.startsWith("Skeptic") && r.prefers_b.audience.startsWith("Skeptic")))).toBe(true);

    const pair = (a: string, b: string) => body.audience_sensitivity.find((s: { audience_a: string; audience_b: string }) => s.audience_a === a && s.audience_b === b);
    expect(body.audience_sensitivity).toHaveLength(3);
    expect(pair(SKEPTICS.name, SKEPTICS_TWIN.name)).toMatchObject({ assets_compared: 3, rank_correlation: 1, largest_score_change: 0, persona_made_no_difference: true });
    expect(pair(BARGAIN.name, SKEPTICS.name).persona_made_no_difference).toBe(false);
    expect(pair(BARGAIN.name, SKEPTICS.name).rank_correlation).toBeLessThan(1);
    expect(body.summary.warnings.filter((w: { code: string }) => w.code === "persona_made_no_difference")).toHaveLength(1);
    expect(body.summary.warnings.find((w: { code: string }) => w.code === "persona_made_no_difference").message).toContain(SKEPTICS_TWIN.name);

    // The comparison agrees with the rankings it summarizes.
    for (const [i, id] of EXAMPLES.entries()) {
      const row = body.comparison[i];
      expect(row).toMatchObject({ asset_index: i, asset_id: id });
      const scores = [0, 1, 2].map((k) => scoresOf(body.by_audience[k])[id]!.score);
      expect(row.scores.map((s: { score: number }) => s.score)).toEqual(scores);
      expect(row.spread).toBeCloseTo(Math.max(...scores) - Math.min(...scores), 10);
    }
    expect(body.comparison[0].best_audience).toBe(BARGAIN.name);
    expect(body.summary).toMatchObject({ audiences: [BARGAIN.name, SKEPTICS.name, SKEPTICS_TWIN.name], assets_ranked: 9, assets_failed: 0, scoring_evaluations: 18, credits_used: 18 });
    expect(body.summary.models.simulated).toBe(true);
  }, 120_000);

  it("charges assets × audiences × layers once, in one reservation and one settlement; an Idempotency-Key repeat is not charged again", async () => {
    const account = await stack.createAccount({ credits: 100 });
    const key = `audiences-${Date.now()}`;
    const body = { assets, audiences: [BARGAIN, SKEPTICS], refine_close_pairs: false };
    const first = conforms("rankAcrossAudiences", await rankAudiences(account.key, body, { "Idempotency-Key": key }));
    expect(first.status, stack.output()).toBe(200);
    // 3 assets with copy (2 evaluations each) × 2 audiences.
    expect(first.body.summary).toMatchObject({ scoring_evaluations: 12, credits_used: 12, credits_remaining: 88 });
    expect(first.body.by_audience.map((a: { summary: { scoring_evaluations: number; credits_used: number; credits_remaining: number | null } }) => [a.summary.scoring_evaluations, a.summary.credits_used, a.summary.credits_remaining])).toEqual([
      [6, 6, null],
      [6, 6, null],
    ]);
    const again = await rankAudiences(account.key, body, { "Idempotency-Key": key });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.request_id).toBe(first.body.request_id);
    expect(await available(account.accountId)).toBe(88);

    const events = (await readAccountEvents(stack.nc, stack.topo, account.accountId)).map((e) => e.event);
    const reserved = events.filter((e) => e.type === "UsageReserved");
    const settled = events.filter((e) => e.type === "UsageSettled");
    expect(reserved.map((e) => (e as { units: number }).units)).toEqual([12]);
    expect(settled.map((e) => (e as { unitsUsed: number }).unitsUsed)).toEqual([12]);

    // GET by request_id gives the stored answer, whole.
    const stored = conforms("getRequest", await call(stack.baseUrl, "GET", `/api/v1/requests/${first.body.request_id}`, { key: account.key }));
    expect(stored.body.by_audience).toHaveLength(2);
    expect(stored.body.summary.credits_used).toBe(12);

    // An outcome is one creative's result for the audience it ran for: a side-by-side request cannot say which.
    const outcome = conforms("recordOutcomes", await call(stack.baseUrl, "POST", "/api/v1/outcomes", { key: account.key, json: { outcomes: [{ request_id: first.body.request_id, asset_id: "spring-sale", metric: "ctr", value: 0.1 }] } }));
    expect([outcome.status, outcome.body.field]).toEqual([422, "outcomes[0].request_id"]);
    expect(outcome.body.error).toMatch(/several audiences side by side; record outcomes against a rank request/);
  }, 120_000);

  it("answers async: 202 with progress over assets × audiences, then the result by request_id", async () => {
    const account = await stack.createAccount({ credits: 100 });
    const accepted = conforms("rankAcrossAudiences", await rankAudiences(account.key, { assets, audiences: [BARGAIN, SKEPTICS, SKEPTICS_TWIN], async: true }));
    expect(accepted.status, stack.output()).toBe(202);
    expect(accepted.body).toMatchObject({ operation: "rank_audiences", status: "running", progress: { total: 9, unit: "assets" } });
    let result: HttpResult | null = null;
    for (let i = 0; i < 120 && result === null; i++) {
      const look = await call(stack.baseUrl, "GET", `/api/v1/requests/${accepted.body.request_id}`, { key: account.key });
      if (look.status === 200 && "by_audience" in look.body) result = look;
      else await new Promise((r) => setTimeout(r, 250));
    }
    expect(result, "the asynchronous request did not finish").not.toBeNull();
    expect(result!.body.by_audience).toHaveLength(3);
    expect(result!.body.summary.scoring_evaluations).toBe(18);
  }, 120_000);

  it("refuses a request larger than one rate window with a 422 that names the count and the limit, and charges nothing", async () => {
    const account = await stack.createAccount({ credits: 1_000 });
    const twenty = Array.from({ length: 20 }, (_, i) => ({ url: dataUri(EXAMPLES[i % 3]!), id: `a${i}` }));
    const oversized = conforms("rankAcrossAudiences", await rankAudiences(account.key, { assets: twenty, audiences: [BARGAIN, SKEPTICS, SKEPTICS_TWIN, { name: "Fourth" }] }));
    expect(oversized.status).toBe(422);
    expect(oversized.body.field).toBe("audiences");
    expect(oversized.body.error).toContain("needs up to 80 scoring evaluations (20 assets × 4 audiences)");
    expect(oversized.body.error).toContain("at most 60");
    const withCopy = await rankAudiences(account.key, { assets: twenty.map((a) => ({ ...a, copy_context: COPY["spring-sale.png"] })), audiences: [BARGAIN, SKEPTICS] });
    expect(withCopy.status).toBe(422);
    expect(withCopy.body.error).toContain("80 scoring evaluations (20 assets × 2 audiences × 2 with copy)");
    // The largest that fits: 20 assets × 3 audiences is exactly one window.
    const fits = conforms("rankAcrossAudiences", await rankAudiences(account.key, { assets: twenty, audiences: [BARGAIN, SKEPTICS, SKEPTICS_TWIN], refine_close_pairs: false }));
    expect(fits.status, stack.output()).toBe(200);
    expect(fits.body.summary.scoring_evaluations).toBe(60);
    expect(await available(account.accountId)).toBe(940);
  }, 180_000);

  it("refuses bad audiences with the field named: too few, too many, duplicate names, a saved one that is not the caller's", async () => {
    const account = await stack.createAccount({ credits: 10 });
    const other = await stack.createAccount({ credits: 10 });
    const saved = await call(stack.baseUrl, "POST", "/api/v1/audiences", { key: other.key, json: { name: "Theirs" } });
    expect(saved.status).toBe(201);
    const mine = await call(stack.baseUrl, "POST", "/api/v1/audiences", { key: account.key, json: { name: "bargain hunters " } });
    expect(mine.status).toBe(201);
    const cases: Array<[unknown[], number, string, RegExp]> = [
      [[BARGAIN], 422, "audiences", /at least 2 items/],
      [[BARGAIN, SKEPTICS, SKEPTICS_TWIN, { name: "4" }, { name: "5" }, { name: "6" }], 422, "audiences", /at most 5 items/],
      [[BARGAIN, { ...SKEPTICS, name: "BARGAIN HUNTERS" }], 422, "audiences[1].name", /unique/],
      [[BARGAIN, { audience_id: mine.body.id }], 422, "audiences[1].audience_id", /unique/],
      [[BARGAIN, { audience_id: saved.body.id }], 404, "audiences[1].audience_id", /No saved audience/],
      [[BARGAIN, { name: "x", demographics: { priceSensitivity: "extreme" } }], 422, "audiences[1].demographics.priceSensitivity", /one of/],
      [[BARGAIN, { name: "x", audience_id: "y" }], 422, "audiences[1]", /exactly one/],
    ];
    for (const [audiences, status, field, error] of cases) {
      const res = conforms("rankAcrossAudiences", await rankAudiences(account.key, { assets: assets.slice(0, 1), audiences }));
      expect(res.status, JSON.stringify(audiences)).toBe(status);
      if (field) expect(res.body.field, JSON.stringify(res.body)).toBe(field);
      expect(res.body.error).toMatch(error);
    }
    const unknown = await rankAudiences(account.key, { assets: assets.slice(0, 1), audiences: [BARGAIN, SKEPTICS], audience: BARGAIN });
    expect([unknown.status, unknown.body.field]).toEqual([422, "audience"]);
    expect(await available(account.accountId)).toBe(10);
  }, 60_000);
});

describe.skipIf(missing.length > 0)("audiences side by side: an image is fetched once for every audience", () => {
  let stack: Stack;
  let server: TestHttpsServer;
  let caFile = "";

  beforeAll(async () => {
    const cert = makeSelfSignedCert();
    caFile = join(tmpdir(), `rank-audiences-ca-${process.pid}.pem`);
    writeFileSync(caFile, cert.cert);
    server = await startTestHttpsServer(cert);
    for (const id of EXAMPLES) {
      server.route(`/${id}.png`, (_req, res) => {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(png(id));
      });
    }
    stack = await startStack({ voterEnv: false, refinementEnv: false, gatewayEnv: { IMAGE_ALLOW_LOOPBACK: "true", IMAGE_CA_FILE: caFile } });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await server?.close();
    rmSync(caFile, { force: true });
  }, 60_000);

  it("fetches each https image once for three audiences, and counts one fetch per URL in the fetch window", async () => {
    const account = await stack.createAccountDirect({ credits: 50 });
    const body = { assets: EXAMPLES.map((id) => ({ url: `${server.origin}/${id}.png`, id })), audiences: [BARGAIN, SKEPTICS, SKEPTICS_TWIN], refine_close_pairs: false };
    const res = await call(stack.baseUrl, "POST", "/api/v1/rank/audiences", { key: account.key, json: body });
    expect(res.status, stack.output()).toBe(200);
    expect(res.body.by_audience.map((a: { ranked: unknown[] }) => a.ranked.length)).toEqual([3, 3, 3]);
    expect(server.requests.map((r) => r.path).sort()).toEqual(EXAMPLES.map((id) => `/${id}.png`).sort());
    const reserved = (await readAccountEvents(stack.nc, stack.topo, account.accountId)).map((e) => e.event).filter((e) => e.type === "UsageReserved");
    expect(reserved.map((e) => [(e as { units: number }).units, (e as { fetches?: number }).fetches])).toEqual([[9, 3]]);
  }, 120_000);
});
