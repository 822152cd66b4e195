import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "@adrank/ledger-domain";
import { makeSelfSignedCert } from "../../packages/images/test/support/self-signed-cert.ts";
import { startTestHttpsServer, type TestHttpsServer } from "../../packages/images/test/support/test-https-server.ts";
import { call, rank, type HttpResult } from "../support/http.ts";
import { readAccountEvents } from "../support/ledger-events.ts";
import { responseValidator } from "../support/openapi-validator.ts";
import { missingServices } from "../support/paths.ts";
import { creative, encodePng } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// Issue 36, evaluations reused across requests, end to end: a re-rank of four creatives plus one
// new one with reuse_evaluations makes one evaluation's model calls (6 generator calls and 1
// embedding call) and charges one credit; the four are marked reused with their earlier scores,
// and refinement still runs. Without the flag everything is scored again; a changed persona,
// goal, asset type, account or model set is never reused. Images in the body are left out of
// the reservation itself; an https:// image is reserved and released at settlement. Every body
// is checked against the served OpenAPI document.

const missing = missingServices(["gateway", "ledger", "scorer", "refinement", "panel-voter"]);
if (missing.length > 0) console.warn(`reuse-evaluations.e2e.spec.ts SKIPPED: ${missing.join(", ")} not in this checkout yet.`);

/** Three creatives in the body and one on an https:// server: the first batch; a fifth is added later. */
const DATA_CREATIVES = [1, 2, 3].map((v) => ({ id: `c${v}`, url: creative(v) }));
const NEW_CREATIVE = { id: "c5", url: creative(5) };
const HOSTED_PNG = encodePng(96, 96, (x, y) => (Math.hypot(x - 48, y - 40) < 22 ? [30, 90, 200] : y > 70 && y < 82 && x > 10 && x < 60 ? [200, 60, 20] : [240, 235, 220]));
const AUDIENCE = { name: "Trail runners", description: "Runs on weekends", demographics: { ageRange: "25-34", incomeLevel: "50k-75k" } };

type Ranked = { asset_id: string; reused?: boolean; score: number; score_before_refine: number; details: { repetitionScores: number[] } };

describe.skipIf(missing.length > 0)("evaluations reused across requests (reuse_evaluations)", () => {
  let stack: Stack;
  let server: TestHttpsServer;
  let caFile = "";
  let validator: ReturnType<typeof responseValidator>;
  let assets: Array<{ id: string; url: string }> = [];

  const ranked = (key: string, json: Record<string, unknown>): Promise<HttpResult> =>
    rank(stack.baseUrl, key, { audience: AUDIENCE, goal: "click-through-rate", ...json }).then((res) => {
      expect(res.status, `${JSON.stringify(res.body).slice(0, 600)}\n${stack.output().slice(-3000)}`).toBe(200);
      expect(validator.check("rankAssets", res.status, res.body), JSON.stringify(res.body).slice(0, 600)).toBeNull();
      return res;
    });
  const byId = (res: HttpResult): Record<string, Ranked> => Object.fromEntries((res.body.ranked as Ranked[]).map((r) => [r.asset_id, r]));
  const available = async (accountId: string) => {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value.available;
  };
  /** Keeping is written in the background after the answer: wait until the account has `n` kept evaluations. */
  const keptCount = async (accountId: string, n: number) => {
    const until = Date.now() + 10_000;
    for (;;) {
      const row = await stack.database.db.selectFrom("kept_evaluations").select((eb) => eb.fn.countAll<string>().as("n")).where("account_id", "=", accountId).executeTakeFirstOrThrow();
      if (Number(row.n) >= n || Date.now() > until) return Number(row.n);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** The ledger's record of one request: what it reserved and what it settled, with its model usage. */
  const ledgerOf = async (accountId: string, requestId: string) => {
    const events = (await readAccountEvents(stack.nc, stack.topo, accountId)).map((e) => e.event);
    const reserved = events.find((e): e is Extract<LedgerEvent, { type: "UsageReserved" }> => e.type === "UsageReserved" && e.reservationId === requestId);
    const settled = events.find((e): e is Extract<LedgerEvent, { type: "UsageSettled" }> => e.type === "UsageSettled" && e.reservationId === requestId);
    const calls = (prefix: string) => (settled?.modelUsage ?? []).filter((u) => u.model.startsWith(prefix)).reduce((n, u) => n + u.calls, 0);
    return { reserved: reserved?.units, used: settled?.unitsUsed, generatorCalls: calls("sim:sim-gen-"), embedCalls: calls("sim:sim-embed") };
  };

  let account: Account;
  let first: HttpResult;

  beforeAll(async () => {
    const cert = makeSelfSignedCert();
    caFile = join(tmpdir(), `reuse-evaluations-ca-${process.pid}.pem`);
    writeFileSync(caFile, cert.cert);
    server = await startTestHttpsServer(cert);
    server.route("/hosted.png", (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(HOSTED_PNG);
    });
    stack = await startStack({ gatewayEnv: { RANK_TIMEOUT_MS: "60000", IMAGE_ALLOW_LOOPBACK: "true", IMAGE_CA_FILE: caFile } });
    const doc = await call(stack.baseUrl, "GET", "/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    validator = responseValidator(doc.body);
    assets = [...DATA_CREATIVES, { id: "c4", url: `${server.origin}/hosted.png` }];

    account = await stack.createAccount({ credits: 100 });
    first = await ranked(account.key, { assets });
    expect(first.body.summary).toMatchObject({ scoring_evaluations: 4, evaluations_reused: 0, credits_used: 4 });
    expect((first.body.ranked as Ranked[]).every((r) => r.reused === false)).toBe(true);
    // Kept whatever the first request asked: it did not set the flag.
    expect(await keptCount(account.accountId, 4)).toBe(4);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await server?.close();
    rmSync(caFile, { force: true });
  }, 60_000);

  it("re-ranks four creatives and a new one with one evaluation's model calls and one credit, the four reused with their scores", async () => {
    const before = await available(account.accountId);
    const again = await ranked(account.key, { assets: [...assets, NEW_CREATIVE], reuse_evaluations: true });
    const earlier = byId(first);
    const now = byId(again);
    for (const { id } of assets) {
      expect(now[id]!.reused, id).toBe(true);
      expect(now[id]!.score_before_refine, id).toBe(earlier[id]!.score_before_refine);
      expect(now[id]!.details.repetitionScores, id).toEqual(earlier[id]!.details.repetitionScores);
    }
    expect(now[NEW_CREATIVE.id]!.reused).toBe(false);
    expect(again.body.summary).toMatchObject({ assets_ranked: 5, scoring_evaluations: 1, evaluations_reused: 4, credits_used: 1, credits_remaining: before - 1 });
    expect(await available(account.accountId)).toBe(before - 1);
    // Refinement still ran, over reused and new assets alike.
    expect(again.body.summary.close_pair_refinement.enabled).toBe(true);
    expect(again.body.summary.close_pair_refinement.error).toBeUndefined();
    // The receipt names what produced every score, reused ones included.
    expect(again.body.summary.method.generators.map((g: { model: string }) => g.model)).toEqual(["sim:sim-gen-a", "sim:sim-gen-b"]);

    // One evaluation's model calls: 3 repetitions on each of 2 generators, and 1 embedding.
    const ledger = await ledgerOf(account.accountId, again.body.request_id);
    expect(ledger).toMatchObject({ generatorCalls: 6, embedCalls: 1, used: 1 });
    // The three creatives in the body were left out of the reservation; the https:// one was reserved and released.
    expect(ledger.reserved).toBe(2);
  }, 60_000);

  it("scores and charges everything again without the flag", async () => {
    const before = await available(account.accountId);
    const res = await ranked(account.key, { assets: [...assets, NEW_CREATIVE] });
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 5, evaluations_reused: 0, credits_used: 5 });
    expect((res.body.ranked as Ranked[]).every((r) => r.reused === false)).toBe(true);
    expect(await available(account.accountId)).toBe(before - 5);
    expect(await ledgerOf(account.accountId, res.body.request_id)).toMatchObject({ generatorCalls: 30, embedCalls: 5, reserved: 5, used: 5 });
  }, 60_000);

  it.each([
    ["the demographics", { audience: { ...AUDIENCE, demographics: { ...AUDIENCE.demographics, ageRange: "55-64" } } }],
    ["the goal", { goal: "purchase-intent" }],
    ["the asset type", { asset_type: "Website Banner" }],
  ])("reuses nothing when %s changed", async (_what, change) => {
    const res = await ranked(account.key, { assets: DATA_CREATIVES, reuse_evaluations: true, ...change });
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 3, evaluations_reused: 0, credits_used: 3 });
    expect((res.body.ranked as Ranked[]).some((r) => r.reused)).toBe(false);
  }, 60_000);

  it("never reuses another account's evaluations of the same creatives", async () => {
    const other = await stack.createAccount({ credits: 20 });
    const res = await ranked(other.key, { assets: DATA_CREATIVES, reuse_evaluations: true });
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 3, evaluations_reused: 0, credits_used: 3 });
    expect(await ledgerOf(other.accountId, res.body.request_id)).toMatchObject({ generatorCalls: 18, reserved: 3, used: 3 });
  }, 60_000);

  it("reuses per audience when ranking across audiences, and bills only the audience whose evaluations are new", async () => {
    const before = await available(account.accountId);
    const walkers = { name: "Walkers", demographics: { ageRange: "65+" } };
    const res = await call(stack.baseUrl, "POST", "/api/v1/rank/audiences", { key: account.key, json: { assets, audiences: [AUDIENCE, walkers], goal: "click-through-rate", reuse_evaluations: true } });
    expect(res.status, JSON.stringify(res.body).slice(0, 600)).toBe(200);
    expect(validator.check("rankAcrossAudiences", res.status, res.body), JSON.stringify(res.body).slice(0, 600)).toBeNull();
    const [same, other] = res.body.by_audience as Array<{ ranked: Ranked[]; summary: { scoring_evaluations: number; evaluations_reused: number } }>;
    expect(same!.ranked.every((r) => r.reused === true)).toBe(true);
    expect(same!.summary).toMatchObject({ scoring_evaluations: 0, evaluations_reused: 4 });
    expect(other!.ranked.some((r) => r.reused)).toBe(false);
    expect(other!.summary).toMatchObject({ scoring_evaluations: 4, evaluations_reused: 0 });
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 4, evaluations_reused: 4, credits_used: 4 });
    expect(await available(account.accountId)).toBe(before - 4);
    // The body's three images under the first audience were left out of the reservation: 8 at most, 3 found.
    expect(await ledgerOf(account.accountId, res.body.request_id)).toMatchObject({ generatorCalls: 24, reserved: 5, used: 4 });
  }, 60_000);

  it("reuses nothing once the scorers run another model set", async () => {
    const scorer = stack.processes.find((p) => p.name === "scorer")!;
    await scorer.stop();
    await stack.startReplica("scorer", { ADRANK_GENERATORS: "sim:sim-gen-a,sim:sim-gen-c" });
    // The gateway trusts the scorers' method key for 10 s (kept-evaluations.ts): wait it out.
    await new Promise((r) => setTimeout(r, 10_500));
    const keptBefore = await keptCount(account.accountId, 0);
    const res = await ranked(account.key, { assets: DATA_CREATIVES, reuse_evaluations: true });
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 3, evaluations_reused: 0, credits_used: 3 });
    expect(res.body.summary.models.generators).toEqual(["sim:sim-gen-a", "sim:sim-gen-c"]);
    // The new method's evaluations are kept beside the old ones, and reused in turn: for nothing.
    expect(await keptCount(account.accountId, keptBefore + 3)).toBe(keptBefore + 3);
    const before = await available(account.accountId);
    const again = await ranked(account.key, { assets: DATA_CREATIVES, reuse_evaluations: true });
    expect(again.body.summary).toMatchObject({ scoring_evaluations: 0, evaluations_reused: 3, credits_used: 0 });
    const scored = byId(res);
    for (const [id, asset] of Object.entries(byId(again))) expect(asset.score_before_refine, id).toBe(scored[id]!.score_before_refine);
    expect(await available(account.accountId)).toBe(before);
    expect(await ledgerOf(account.accountId, again.body.request_id)).toMatchObject({ generatorCalls: 0, embedCalls: 0, reserved: 1, used: 0 });
  }, 90_000);
});
