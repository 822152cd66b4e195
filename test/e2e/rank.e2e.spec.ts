import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, rank, type HttpResult } from "../support/http.ts";
import { responseValidator } from "../support/openapi-validator.ts";
import { missingServices } from "../support/paths.ts";
import { creative, flatColour } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";

// The rank operation over HTTP against the real gateway, ledger and scorer (offline `sim`
// model), rule by rule. Every response is checked against the OpenAPI document the gateway
// serves (ajv, JSON Schema 2020-12).

const missing = missingServices(["gateway", "ledger", "scorer"]);
if (missing.length > 0) console.warn(`rank.e2e.spec.ts SKIPPED: ${missing.join(", ")} not in this checkout yet (no src/main.ts).`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const audience = { name: "Urban runners", description: "Training for a first marathon, comparing shoes online", demographics: { ageRange: "25-34", shoppingIntent: "comparing" } };
const NOT_AN_IMAGE = "data:image/png;base64,aGVsbG8gd29ybGQ=";
const REFUSED_URL = "https://10.0.0.1/ad.png";

describe.skipIf(missing.length > 0)("POST /api/v1/rank end to end", () => {
  let stack: Stack;
  let validator: ReturnType<typeof responseValidator>;

  beforeAll(async () => {
    stack = await startStack({ gatewayEnv: { RANK_TIMEOUT_MS: "30000" } });
    const doc = await call(stack.baseUrl, "GET", "/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    validator = responseValidator(doc.body);
    // The validator must be able to fail: an empty object is no RankResponse, a 429 needs retryAfter.
    expect(validator.check("rankAssets", 200, {})).not.toBeNull();
    expect(validator.check("rankAssets", 429, { error: "slow down" })).not.toBeNull();
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  /** Asserts the body matches the document's schema for this operation and status. */
  function conforms(res: HttpResult, operationId = "rankAssets"): HttpResult {
    expect(validator.check(operationId, res.status, res.body), `${operationId} ${res.status} body: ${JSON.stringify(res.body).slice(0, 500)}`).toBeNull();
    return res;
  }

  async function balance(accountId: string) {
    const r = await stack.ledger.balance({ accountId });
    if (!r.ok) throw new Error(JSON.stringify(r.rejection));
    return r.value;
  }

  it("ranks one asset with every documented field and the 200 headers", async () => {
    const account = await stack.createAccount({ credits: 50 });
    const res = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: creative(1), id: "hero" }], audience }));
    expect(res.status, stack.output()).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const [asset] = res.body.ranked;
    expect(asset).toMatchObject({
      rank: 1,
      asset_id: "hero",
      score_layer: "image-only",
      asset_type: "Social Media Post",
      copy_context_included: false,
      copy_lift: 0,
      panel_outcome: null,
      confidence_details: { repetition_count: 3, generator_sample_count: 6 },
      details: { repetitionCount: 3, generatorSampleCount: 6 },
    });
    expect(asset.asset_url.startsWith("data:image/png;base64,")).toBe(true);
    expect(asset.score).toBeGreaterThanOrEqual(1);
    expect(asset.score).toBeLessThanOrEqual(5);
    expect(asset.image_only_score).toBe(asset.score);
    expect(asset.score_before_refine).toBe(asset.score);
    expect(asset.details.probabilities).toHaveLength(5);
    expect(asset.details.repetitionScores).toHaveLength(3);
    expect(["high", "medium", "low"]).toContain(asset.confidence);
    expect(res.body.errors).toEqual([]);
    expect(res.body.summary).toMatchObject({
      goal: "purchase-intent",
      asset_type: "Social Media Post",
      platform: null,
      audience: "Urban runners",
      assets_ranked: 1,
      assets_failed: 0,
      scoring_evaluations: 1,
      repetitions_per_evaluation: 3,
      generator_samples_per_evaluation: 6,
      // Refinement is on by default; one asset has no close pair, so no panel ran.
      close_pair_refinement: { enabled: true, pairs_evaluated: 0, results: [] },
      credits_used: 1,
      credits_remaining: 49,
      credits_status: "confirmed",
      // The stack runs on the offline sim, and the response says so rather than passing for a model's.
      models: { generators: ["sim:sim-gen-a", "sim:sim-gen-b"], embedder: "sim:sim-embed", voters: [], simulated: true },
    });
    expect((await balance(account.accountId)).available).toBe(49);
  });

  it("ranks 20 assets, sorted by score with ranks from 1, and bills 20 evaluations", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const assets = Array.from({ length: 20 }, (_, i) => ({ url: creative(i + 10), id: `a${i}` }));
    const res = conforms(await rank(stack.baseUrl, account.key, { assets, audience, goal: "click-through-rate" }));
    expect(res.status, stack.output()).toBe(200);
    expect(res.body.ranked).toHaveLength(20);
    expect(res.body.ranked.map((r: { rank: number }) => r.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const scores = res.body.ranked.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(res.body.ranked.map((r: { asset_id: string }) => r.asset_id)).size).toBe(20);
    expect(res.body.summary).toMatchObject({ goal: "click-through-rate", assets_ranked: 20, scoring_evaluations: 20, credits_used: 20, credits_remaining: 80 });
    expect(res.headers.get("x-ratelimit-remaining")).toBe("40");
    expect((await balance(account.accountId)).available).toBe(80);
  });

  it("refuses 0 and 21 assets with 422 naming the field, and charges nothing", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    for (const assets of [[], Array.from({ length: 21 }, (_, i) => ({ url: creative(i) }))]) {
      const res = conforms(await rank(stack.baseUrl, account.key, { assets, audience }));
      expect(res.status).toBe(422);
      expect(res.body.field).toMatch(/^assets/);
      expect(res.headers.get("x-request-id")).toMatch(UUID);
    }
    expect((await balance(account.accountId)).available).toBe(100);
  });

  it("applies the request-level asset_type to assets without their own", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const res = conforms(
      await rank(stack.baseUrl, account.key, { assets: [{ url: creative(2), id: "plain" }, { url: creative(3), id: "logo", asset_type: "Logo" }], asset_type: "Advertisement", audience }),
    );
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.ranked.map((r: { asset_id: string; asset_type: string }) => [r.asset_id, r.asset_type]));
    expect(byId).toEqual({ plain: "Advertisement", logo: "Logo" });
    expect(res.body.summary.asset_type).toBe("Advertisement");
  });

  it("takes the platform from platform, else from campaign_type", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const withPlatform = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: creative(4) }], audience, platform: "tiktok", campaign_type: "feed" }));
    expect(withPlatform.body.summary.platform).toBe("tiktok");
    const withCampaign = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: creative(4) }], audience, campaign_type: "reels" }));
    expect(withCampaign.body.summary.platform).toBe("instagram");
  });

  it("scores copy_context as a full ad package with an image-only ablation and copy lift", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const copy = { headline: "Run your first marathon", primaryText: "Cushioning that lasts 42 km. Free returns.", businessName: "Stride" };
    const res = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: creative(5), id: "ad", copy_context: copy }], audience }));
    expect(res.status).toBe(200);
    const [asset] = res.body.ranked;
    expect(asset).toMatchObject({ score_layer: "full-ad-package", copy_context_included: true });
    expect(typeof asset.image_only_score).toBe("number");
    expect(asset.copy_lift).toBeCloseTo(asset.score - asset.image_only_score, 9);
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 2, credits_used: 2, credits_remaining: 98 });
  });

  it("judges copy on a picture without visual content as copy-only, for 1 evaluation", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const res = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: flatColour(), copy_context: { adBody: "Summer sale: 30% off every running shoe." } }], audience }));
    expect(res.status).toBe(200);
    expect(res.body.ranked[0]).toMatchObject({ score_layer: "copy-only", copy_context_included: true, image_only_score: null, copy_lift: null });
    expect(res.body.summary.scoring_evaluations).toBe(1);
  });

  it("reports failed assets in errors while the rest rank, and bills only what succeeded", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const res = conforms(
      await rank(stack.baseUrl, account.key, {
        assets: [
          { url: REFUSED_URL, id: "private" },
          { url: creative(6), id: "good" },
          { url: NOT_AN_IMAGE, id: "text", copy_context: { adBody: "x" } },
        ],
        audience,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.ranked.map((r: { asset_id: string }) => r.asset_id)).toEqual(["good"]);
    expect(res.body.errors.map((e: { asset_id: string }) => e.asset_id)).toEqual(["private", "text"]);
    expect(res.body.errors[0]).toMatchObject({ asset_url: REFUSED_URL, error: expect.any(String) });
    expect(res.body.errors.every((e: { error: string }) => e.error.length > 10 && !/\n|at \w+ \(/.test(e.error))).toBe(true);
    expect(res.body.summary).toMatchObject({ assets_ranked: 1, assets_failed: 2, scoring_evaluations: 1, credits_used: 1, credits_remaining: 99 });
  });

  it("answers a batch where every asset fails with 200, empty ranked and nothing billed", async () => {
    const account = await stack.createAccountDirect({ credits: 10 });
    const res = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: REFUSED_URL }, { url: NOT_AN_IMAGE, copy_context: { adBody: "x" } }], audience }));
    expect(res.status).toBe(200);
    expect(res.body.ranked).toEqual([]);
    expect(res.body.errors).toHaveLength(2);
    expect(res.body.summary).toMatchObject({ assets_ranked: 0, assets_failed: 2, scoring_evaluations: 0, credits_used: 0, credits_remaining: 10 });
    expect(await balance(account.accountId)).toMatchObject({ available: 10, reserved: 0 });
  });

  it("bills per the spec's table: image-only 1, copy with ablation 2, copy-only 1, failed 0", async () => {
    const account = await stack.createAccountDirect({ credits: 100 });
    const res = conforms(
      await rank(stack.baseUrl, account.key, {
        assets: [
          { url: creative(7), id: "image-only" },
          { url: creative(8), id: "with-copy", copy_context: { adHeadline: "Lighter. Faster." } },
          { url: flatColour([20, 90, 200]), id: "copy-only", copy_context: { adBody: "New colours in stock." } },
          { url: NOT_AN_IMAGE, id: "failed" },
        ],
        audience,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ scoring_evaluations: 4, credits_used: 4, credits_remaining: 96, assets_ranked: 3, assets_failed: 1 });
    expect(await balance(account.accountId)).toMatchObject({ available: 96, used: 4, reserved: 0 });
    expect(res.headers.get("x-ratelimit-remaining")).toBe("56");
  });

  it("answers 401 without a key, with a bad key and with a revoked key within 5 s", async () => {
    const account = await stack.createAccount({ credits: 10 });
    const body = { assets: [{ url: creative(9) }], audience };
    const unauthenticated = [
      await rank(stack.baseUrl, undefined, body),
      await rank(stack.baseUrl, "agk_live_not-a-real-key", body),
      await rank(stack.baseUrl, `${account.key.slice(0, -4)}AAAA`, body),
      await call(stack.baseUrl, "POST", "/api/v1/rank", { json: body, headers: { authorization: `Basic ${account.key}` } }),
    ];
    for (const res of unauthenticated) {
      conforms(res);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: unauthenticated[0]!.body.error });
    }
    expect((await rank(stack.baseUrl, account.key, body)).status).toBe(200);
    await stack.admin("revoke-key", "--key-id", account.keyId);
    const revokedAt = performance.now();
    let status = 200;
    while (status !== 401 && performance.now() - revokedAt < 8_000) {
      status = (await rank(stack.baseUrl, account.key, body)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(401);
    expect(performance.now() - revokedAt).toBeLessThanOrEqual(5_300);
  }, 30_000);

  it("answers 402 when credits cannot cover the batch's maximum, and charges nothing", async () => {
    const account = await stack.createAccountDirect({ credits: 1 });
    const res = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: creative(11), copy_context: { adBody: "Buy now" } }], audience }));
    expect(res.status).toBe(402);
    expect(res.body.error).toMatch(/credit/i);
    expect(await balance(account.accountId)).toMatchObject({ available: 1, reserved: 0 });
  });

  it("ranks with a saved audience of the caller and answers 404 for another account's", async () => {
    const owner = await stack.createAccountDirect({ credits: 10 });
    const stranger = await stack.createAccountDirect({ credits: 10 });
    const created = conforms(
      await call(stack.baseUrl, "POST", "/api/v1/audiences", { key: owner.key, json: { name: "Trail runners", demographics: { ageRange: "35-44", urgency: "low" } } }),
      "createAudience",
    );
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^aud_/);
    const body = { assets: [{ url: creative(12) }], audience_id: created.body.id };
    const own = conforms(await rank(stack.baseUrl, owner.key, body));
    expect(own.status).toBe(200);
    expect(own.body.summary.audience).toBe("Trail runners");
    const foreign = conforms(await rank(stack.baseUrl, stranger.key, body));
    expect(foreign.status).toBe(404);
    const unknown = conforms(await rank(stack.baseUrl, owner.key, { ...body, audience_id: "aud_doesnotexist" }));
    expect(unknown.status).toBe(404);
    const listed = conforms(await call(stack.baseUrl, "GET", "/api/v1/audiences", { key: stranger.key }), "listAudiences");
    expect(JSON.stringify(listed.body)).not.toContain(created.body.id);
    expect(await balance(stranger.accountId)).toMatchObject({ available: 10 });
  });

  it("answers 422 with field for schema violations and 400 for bodies that are not JSON", async () => {
    const account = await stack.createAccountDirect({ credits: 10 });
    const cases: Array<[unknown, string]> = [
      [{ assets: [{ url: creative(1) }], audience, goal: "world-domination" }, "goal"],
      [{ assets: [{ url: creative(1) }], audience, asset_type: "Billboard" }, "asset_type"],
      [{ assets: [{ url: creative(1) }] }, ""],
      [{ assets: [{ url: creative(1) }], audience, audience_id: "aud_x" }, ""],
      [{ assets: [{ url: creative(1), colour: "red" }], audience }, "assets"],
    ];
    for (const [body, field] of cases) {
      const res = conforms(await rank(stack.baseUrl, account.key, body));
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(typeof res.body.error).toBe("string");
      if (field) expect(res.body.field).toMatch(new RegExp(`^${field}`));
    }
    const notJson = conforms(await call(stack.baseUrl, "POST", "/api/v1/rank", { key: account.key, raw: "{assets:", contentType: "application/json" }));
    expect(notJson.status).toBe(400);
    const wrongType = conforms(await call(stack.baseUrl, "POST", "/api/v1/rank", { key: account.key, raw: "assets=1", contentType: "application/x-www-form-urlencoded" }));
    expect(wrongType.status).toBe(400);
    expect((await balance(account.accountId)).available).toBe(10);
  });

  it("answers 429 with retryAfter, resetAt and Retry-After once the key used 60 evaluations in a minute", async () => {
    const account = await stack.createAccountDirect({ credits: 500 });
    const twenty = { assets: Array.from({ length: 20 }, (_, i) => ({ url: creative(40 + i) })), audience };
    for (let i = 0; i < 3; i++) expect((await rank(stack.baseUrl, account.key, twenty)).status).toBe(200);
    const limited = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: creative(1) }], audience }));
    expect(limited.status).toBe(429);
    expect(Number.isInteger(limited.body.retryAfter)).toBe(true);
    expect(limited.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limited.body.retryAfter).toBeLessThanOrEqual(60);
    expect(Number.isInteger(limited.body.resetAt)).toBe(true);
    expect(limited.body.resetAt).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.retryAfter));
    expect((await balance(account.accountId)).available).toBe(440);
  }, 60_000);

  it("sends no CORS headers on /api/v1 and does not answer a preflight with CORS", async () => {
    const preflight = await call(stack.baseUrl, "OPTIONS", "/api/v1/rank", { headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
    expect(preflight.status).toBeGreaterThanOrEqual(400);
  });
});
