import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { FastifyInstance } from "fastify";
import { issueKey } from "@adrank/api-keys";
import { CalibrationResponse, ErrorResponse, RecordOutcomesResponse } from "@adrank/contracts";
import { outcomesRepository, requestsRepository } from "@adrank/db/repositories";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { createImageIntake } from "@adrank/images";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, openImageStore, topology, type NatsConnection } from "@adrank/messaging";
import { createLogger } from "@adrank/runtime";
import { buildApp } from "../src/app.ts";

// POST /api/v1/outcomes and GET /api/v1/calibration through `inject`, on a real Postgres
// schema. The rankings outcomes are recorded against are stored the way the rank route
// stores them (requests repository, images cut out of the text), with scores chosen here so
// the calibration figures have known values. No ledger runs: both routes are free, so they
// must answer without one.

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

let database: TestDatabase;
let nc: NatsConnection;
let app: FastifyInstance;
const topo = topology(`t${randomBytes(5).toString("hex")}`);

async function createAccountWithKey() {
  const id = `acct_${randomBytes(6).toString("hex")}`;
  await database.db.insertInto("accounts").values({ id, name: "outcomes" }).execute();
  const issued = issueKey(randomBytes(41));
  await database.db.insertInto("api_keys").values({ id: `key_${randomBytes(6).toString("hex")}`, account_id: id, name: "test", lookup: issued.lookup, hash: issued.hash, last_four: issued.lastFour }).execute();
  return { accountId: id, key: issued.raw };
}

interface Asset {
  id: string | null;
  score: number;
  raw?: number | null;
}

/** A data URI long enough to be stored as an image token: the stored text is read without restoring it. */
const bigImage = () => `data:image/png;base64,${randomBytes(1200).toString("base64")}`;

const rankBody = (requestId: string, goal: string, simulated: boolean, assets: Asset[], failed: string[]) =>
  JSON.stringify({
    request_id: requestId,
    ranked: [...assets]
      .sort((a, b) => b.score - a.score)
      .map((a, i) => ({ rank: i + 1, asset_url: bigImage(), asset_id: a.id, score: a.score, score_before_refine: a.raw === undefined ? a.score : a.raw, panel_outcome: null })),
    errors: failed.map((id) => ({ asset_url: "https://cdn.example/broken.png", asset_id: id, error: "The image could not be decoded." })),
    summary: { goal, assets_ranked: assets.length, models: { generators: ["sim:sim-gen-a"], embedder: "sim:sim-embed", voters: [], simulated } },
  });

const requests = () => requestsRepository(database.db);
const base = { keyId: "key_x", fingerprint: "-", progressTotal: 1 };

/** A succeeded rank request of the account, stored as the rank route stores it. */
async function storeRanking(accountId: string, opts: { goal?: string; simulated?: boolean; assets: Asset[]; failed?: string[] }): Promise<string> {
  const requestId = randomUUID();
  const body = rankBody(requestId, opts.goal ?? "purchase-intent", opts.simulated ?? true, opts.assets, opts.failed ?? []);
  await requests().recordFinished({ ...base, requestId, accountId, operation: "rank", createdAt: new Date("2026-11-20T09:00:00.000Z") }, { status: 200, headers: {}, body });
  return requestId;
}

async function storeOther(accountId: string, kind: "pairwise" | "running" | "failed"): Promise<string> {
  const requestId = randomUUID();
  if (kind === "pairwise") {
    await requests().recordFinished({ ...base, requestId, accountId, operation: "pairwise" }, { status: 200, headers: {}, body: JSON.stringify({ request_id: requestId, results: [], summary: { goal: "engagement" } }) });
    return requestId;
  }
  await requests().start({ ...base, requestId, accountId, operation: "rank", mode: "async", leaseOwner: "gw-test", leaseMs: 60_000 }, null, 24);
  if (kind === "failed") await requests().finish(requestId, "gw-test", { state: "failed", response: { status: 200, headers: {}, body: "{}" }, error: "No scoring model answered." });
  return requestId;
}

const post = (key: string | null, payload: unknown) =>
  app.inject({ method: "POST", url: "/api/v1/outcomes", headers: key ? { authorization: `Bearer ${key}` } : {}, payload: payload as object });
const calibration = (key: string, query = "") => app.inject({ method: "GET", url: `/api/v1/calibration${query}`, headers: { authorization: `Bearer ${key}` } });

/** A 2xx body parsed with its contract schema: the route answers what the contract says. */
function recorded(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBe(200);
  return RecordOutcomesResponse.parse(JSON.parse(res.body));
}
function refused(res: { statusCode: number; body: string }, status: number, field: string | null) {
  expect(res.statusCode, res.body).toBe(status);
  const body = ErrorResponse.strict().parse(JSON.parse(res.body));
  if (field === null) expect(body.field).toBeUndefined();
  else expect(body.field).toBe(field);
  return body.error;
}

beforeAll(async () => {
  database = await createTestDatabase("gwoutcomes");
  nc = await connectToNats({ url: NATS_URL, name: "gateway-outcomes-test" });
  app = await buildApp({
    config: { RANK_TIMEOUT_MS: 5_000, PAIRWISE_TIMEOUT_MS: 5_000, PRESENCE_TIMEOUT_MS: 200, ASSET_CONCURRENCY: 4, BODY_LIMIT_BYTES: 25 * 1024 * 1024, KEY_CACHE_TTL_MS: 5_000, LEDGER_TIMEOUT_MS: 500 },
    logger: createLogger("gateway-test", "silent"),
    db: database.db,
    bus: { nc, js: jetstream(nc), topo, images: await openImageStore(nc, topo) },
    ledger: createLedgerClient(nc, topo, { timeoutMs: 500 }),
    intake: createImageIntake({ cacheBytes: 0 }),
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  const jsm = await jetstreamManager(nc);
  for await (const s of jsm.streams.list()) if (s.config.name.includes(`${topo.namespace}_`)) await jsm.streams.delete(s.config.name);
  await nc?.close();
  await database?.destroy();
});

describe("POST /api/v1/outcomes", () => {
  it("answers 401 without a key, before reading the body", async () => {
    refused(await post(null, { outcomes: [] }), 401, null);
    const res = await app.inject({ method: "GET", url: "/api/v1/calibration" });
    expect(res.statusCode).toBe(401);
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("records outcomes with the score their ranking gave, then says unchanged for a repeat and updated for a new value", async () => {
    const { accountId, key } = await createAccountWithKey();
    const requestId = await storeRanking(accountId, { goal: "engagement", simulated: false, assets: [{ id: "hero", score: 4.1, raw: 3.7 }, { id: "alt", score: 3.2, raw: null }] });
    const batch = { outcomes: [{ request_id: requestId, asset_id: "hero", metric: "ctr", value: 0.031, impressions: 12_000 }, { request_id: requestId, asset_id: "alt", metric: "ctr", value: 0.012 }] };

    const first = await post(key, batch);
    expect(first.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const created = recorded(first);
    expect(created).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    expect(created.outcomes).toEqual([
      { request_id: requestId, asset_id: "hero", metric: "ctr", value: 0.031, impressions: 12_000, goal: "engagement", score: 4.1, score_before_refine: 3.7, simulated: false, change: "created", recorded_at: expect.any(String) },
      // No raw score in the response: the final score stands for it.
      { request_id: requestId, asset_id: "alt", metric: "ctr", value: 0.012, impressions: null, goal: "engagement", score: 3.2, score_before_refine: 3.2, simulated: false, change: "created", recorded_at: expect.any(String) },
    ]);

    const again = recorded(await post(key, batch));
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(again.outcomes.map((o) => o.recorded_at)).toEqual(created.outcomes.map((o) => o.recorded_at));

    const changed = recorded(await post(key, { outcomes: [{ ...batch.outcomes[0], value: 0.035 }, batch.outcomes[1]] }));
    expect(changed).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(changed.outcomes.map((o) => [o.change, o.value])).toEqual([
      ["updated", 0.035],
      ["unchanged", 0.012],
    ]);
  });

  it("takes a request_id in upper case as the same request", async () => {
    const { accountId, key } = await createAccountWithKey();
    const requestId = await storeRanking(accountId, { assets: [{ id: "a", score: 3 }] });
    recorded(await post(key, { outcomes: [{ request_id: requestId, asset_id: "a", metric: "ctr", value: 1 }] }));
    const upper = recorded(await post(key, { outcomes: [{ request_id: requestId.toUpperCase(), asset_id: "a", metric: "ctr", value: 1 }] }));
    expect(upper.outcomes[0]).toMatchObject({ request_id: requestId, change: "unchanged" });
  });

  it("answers 404 naming the item for an unknown request, another account's and a purged one, and records nothing of the batch", async () => {
    const owner = await createAccountWithKey();
    const stranger = await createAccountWithKey();
    const ownRequest = await storeRanking(owner.accountId, { assets: [{ id: "a", score: 3 }] });
    const strangersRequest = await storeRanking(stranger.accountId, { assets: [{ id: "a", score: 3 }] });
    const good = { request_id: ownRequest, asset_id: "a", metric: "ctr", value: 0.5 };

    const foreign = refused(await post(owner.key, { outcomes: [good, { ...good, request_id: strangersRequest }] }), 404, "outcomes[1].request_id");
    expect(foreign).toContain(strangersRequest);
    refused(await post(owner.key, { outcomes: [good, good, { ...good, request_id: randomUUID() }].map((o, i) => ({ ...o, metric: `m${i}` })) }), 404, "outcomes[2].request_id");
    // Nothing of either batch was kept.
    const report = CalibrationResponse.parse((await calibration(owner.key)).json());
    expect(report.metrics).toEqual([]);

    // A ranking purged after its 30 days: new outcomes cannot name it, the recorded ones stay.
    recorded(await post(owner.key, { outcomes: [good] }));
    await database.db.deleteFrom("api_requests").where("request_id", "=", ownRequest).execute();
    refused(await post(owner.key, { outcomes: [{ ...good, metric: "cvr" }] }), 404, "outcomes[0].request_id");
    const after = CalibrationResponse.parse((await calibration(owner.key)).json());
    expect(after.metrics.map((m) => [m.metric, m.pooled.n_outcomes])).toEqual([["ctr", 1]]);
  });

  it("answers 422 on request_id for a pairwise, a running and a failed request, saying why", async () => {
    const { accountId, key } = await createAccountWithKey();
    const outcome = (request_id: string) => ({ outcomes: [{ request_id, asset_id: "a", metric: "ctr", value: 1 }] });
    expect(refused(await post(key, outcome(await storeOther(accountId, "pairwise"))), 422, "outcomes[0].request_id")).toMatch(/pairwise/);
    expect(refused(await post(key, outcome(await storeOther(accountId, "running"))), 422, "outcomes[0].request_id")).toMatch(/still running/);
    expect(refused(await post(key, outcome(await storeOther(accountId, "failed"))), 422, "outcomes[0].request_id")).toMatch(/failed/);
  });

  it("answers 422 on asset_id for an asset that failed, one that never was, and an id two of its assets share", async () => {
    const { accountId, key } = await createAccountWithKey();
    const requestId = await storeRanking(accountId, { assets: [{ id: "ok", score: 4 }, { id: "twin", score: 3 }, { id: "twin", score: 2 }, { id: null, score: 1 }], failed: ["broken"] });
    const at = (asset_id: string) => ({ outcomes: [{ request_id: requestId, asset_id: "ok", metric: "ctr", value: 1 }, { request_id: requestId, asset_id, metric: "ctr", value: 2 }] });
    expect(refused(await post(key, at("broken")), 422, "outcomes[1].asset_id")).toMatch(/could not be scored.*among its errors/);
    expect(refused(await post(key, at("nope")), 422, "outcomes[1].asset_id")).toMatch(/not the id of a ranked asset/);
    expect(refused(await post(key, at("twin")), 422, "outcomes[1].asset_id")).toMatch(/names 2 assets/);
    // The good first item of each refused batch was not recorded.
    expect((await calibration(key)).json().metrics).toEqual([]);
  });

  it("answers 422 naming the second of a repeated (request_id, asset_id, metric)", async () => {
    const { accountId, key } = await createAccountWithKey();
    const requestId = await storeRanking(accountId, { assets: [{ id: "a", score: 4 }, { id: "b", score: 3 }] });
    const o = (asset_id: string, metric: string, value: number) => ({ request_id: requestId, asset_id, metric, value });
    const error = refused(await post(key, { outcomes: [o("a", "ctr", 1), o("b", "ctr", 2), o("a", "cvr", 3), o("a", "ctr", 4)] }), 422, "outcomes[3].metric");
    expect(error).toMatch(/repeats outcomes\[0\]/);
  });

  it.each([
    ["an empty list", { outcomes: [] }, "outcomes"],
    ["no outcomes", {}, "outcomes"],
    ["an unknown property", { outcomes: [{ request_id: randomUUID(), asset_id: "a", metric: "ctr", value: 1, clicks: 3 }] }, "outcomes[0].clicks"],
    ["a request_id that is no uuid", { outcomes: [{ request_id: "req_1", asset_id: "a", metric: "ctr", value: 1 }] }, "outcomes[0].request_id"],
    ["a metric in capitals", { outcomes: [{ request_id: randomUUID(), asset_id: "a", metric: "CTR", value: 1 }] }, "outcomes[0].metric"],
    ["a value as a string", { outcomes: [{ request_id: randomUUID(), asset_id: "a", metric: "ctr", value: "0.1" }] }, "outcomes[0].value"],
    ["fractional impressions", { outcomes: [{ request_id: randomUUID(), asset_id: "a", metric: "ctr", value: 1, impressions: 2.5 }] }, "outcomes[0].impressions"],
    ["negative impressions", { outcomes: [{ request_id: randomUUID(), asset_id: "a", metric: "ctr", value: 1, impressions: -1 }] }, "outcomes[0].impressions"],
    ["501 outcomes", { outcomes: Array.from({ length: 501 }, (_, i) => ({ request_id: randomUUID(), asset_id: `a${i}`, metric: "ctr", value: i })) }, "outcomes"],
  ])("answers 422 for %s", async (_what, body, field) => {
    const { key } = await createAccountWithKey();
    refused(await post(key, body), 422, field);
  });

  it("answers 422 for a value too large to be finite (1e400 parses to Infinity), and 400 for a body that is not JSON", async () => {
    const { key } = await createAccountWithKey();
    const send = (payload: string) => app.inject({ method: "POST", url: "/api/v1/outcomes", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, payload });
    refused(await send(`{"outcomes":[{"request_id":"${randomUUID()}","asset_id":"a","metric":"ctr","value":1e400}]}`), 422, "outcomes[0].value");
    refused(await send(`{"outcomes":[{"request_id":"${randomUUID()}","asset_id":"a","metric":"ctr","value":-1e400}]}`), 422, "outcomes[0].value");
    refused(await send(`{"outcomes":[`), 400, null);
    refused(await app.inject({ method: "POST", url: "/api/v1/outcomes", headers: { authorization: `Bearer ${key}` } }), 400, null);
  });

  it("records 500 outcomes in one call, and refuses a body over 1 MiB with 413", async () => {
    const { accountId, key } = await createAccountWithKey();
    const assets = Array.from({ length: 20 }, (_, i) => ({ id: `asset-${"x".repeat(100)}-${i}`, score: 1 + i / 5 }));
    const requestIds = await Promise.all(Array.from({ length: 25 }, () => storeRanking(accountId, { assets })));
    const outcomes = requestIds.flatMap((request_id) => assets.map((a, i) => ({ request_id, asset_id: a.id, metric: "conversion_rate", value: i / 1000, impressions: 1_000_000_000 + i })));
    expect(outcomes).toHaveLength(500);
    const res = await post(key, { outcomes });
    expect(res.statusCode, res.body).toBe(200);
    expect(recorded(res).created).toBe(500);

    const huge = JSON.stringify({ outcomes, padding: " ".repeat(1024 * 1024) });
    const tooLarge = await app.inject({ method: "POST", url: "/api/v1/outcomes", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, payload: huge });
    expect(refused(tooLarge, 413, null)).toMatch(/1 MiB/);
  });
});

describe("GET /api/v1/calibration", () => {
  it("answers an empty report for an account without outcomes", async () => {
    const { key } = await createAccountWithKey();
    const res = await calibration(key);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(CalibrationResponse.parse(res.json())).toEqual({ min_outcomes: 10, resamples: 1000, metrics: [] });
  });

  it.each([
    ["an unknown parameter", "?metrics=ctr", "metrics"],
    ["an unknown goal", "?goal=virality", "goal"],
    ["an empty goal", "?goal=", "goal"],
    ["a metric that is no metric name", "?metric=Click%20rate", "metric"],
    ["a repeated parameter", "?metric=ctr&metric=cvr", "metric"],
    ["a parameter named like a prototype key", "?toString=1", "toString"],
  ])("answers 422 for %s, naming it", async (_what, query, field) => {
    const { key } = await createAccountWithKey();
    refused(await calibration(key, query), 422, field);
  });

  it("gives known figures: perfect final order, raw order reversed in one ranking; per goal below 10 outcomes it says not enough data", async () => {
    const { accountId, key } = await createAccountWithKey();
    // Two rankings of six: scores rise with the outcomes everywhere, so rho, tau and
    // agreement are 1. Ranking A's raw scores run the other way, so half the 30 pairs
    // (A's 15) disagree raw: raw agreement 0.5.
    const a = await storeRanking(accountId, { goal: "engagement", simulated: true, assets: Array.from({ length: 6 }, (_, i) => ({ id: `a${i}`, score: 2 + i / 10, raw: 2.5 - i / 10 })) });
    const b = await storeRanking(accountId, { goal: "purchase-intent", simulated: false, assets: Array.from({ length: 6 }, (_, i) => ({ id: `b${i}`, score: 3 + i / 10 })) });
    const outcomes = [
      ...Array.from({ length: 6 }, (_, i) => ({ request_id: a, asset_id: `a${i}`, metric: "ctr", value: 1 + i, impressions: 100 })),
      ...Array.from({ length: 6 }, (_, i) => ({ request_id: b, asset_id: `b${i}`, metric: "ctr", value: 7 + i })),
      { request_id: b, asset_id: "b0", metric: "add_to_cart", value: 3 },
    ];
    recorded(await post(key, { outcomes }));

    const res = await calibration(key);
    expect(res.statusCode, res.body).toBe(200);
    const report = CalibrationResponse.parse(res.json());
    expect(report.metrics.map((m) => m.metric)).toEqual(["add_to_cart", "ctr"]);
    const ctr = report.metrics[1]!;
    expect(ctr.pooled).toMatchObject({ goal: null, n_outcomes: 12, n_requests: 2, n_pairs: 30, n_simulated: 6, impressions: 600, enough_data: true });
    expect(ctr.pooled.spearman_rho).toEqual({ value: 1, ci_low: 1, ci_high: 1 });
    expect(ctr.pooled.kendall_tau_b!.value).toBe(1);
    expect(ctr.pooled.pairwise_agreement).toEqual({ value: 1, ci_low: 1, ci_high: 1 });
    expect(ctr.pooled.pairwise_agreement_raw!.value).toBe(0.5);
    const raw = ctr.pooled.pairwise_agreement_raw!;
    expect(raw.ci_low).toBeLessThanOrEqual(0.5);
    expect(raw.ci_high).toBeGreaterThanOrEqual(0.5);
    expect(ctr.goals.map((g) => [g.goal, g.n_outcomes, g.enough_data, g.spearman_rho, g.pairwise_agreement])).toEqual([
      ["engagement", 6, false, null, null],
      ["purchase-intent", 6, false, null, null],
    ]);
    expect(report.metrics[0]!.pooled).toMatchObject({ n_outcomes: 1, n_pairs: 0, enough_data: false, spearman_rho: null, impressions: null });

    // Filters: one metric, one goal.
    const onlyCtr = CalibrationResponse.parse((await calibration(key, "?metric=ctr")).json());
    expect(onlyCtr.metrics).toEqual([ctr]);
    const onlyAwareness = CalibrationResponse.parse((await calibration(key, "?metric=ctr&goal=engagement")).json());
    expect(onlyAwareness.metrics.map((m) => [m.pooled.goal, m.pooled.n_outcomes, m.goals.map((g) => g.goal)])).toEqual([[null, 6, ["engagement"]]]);
    expect(CalibrationResponse.parse((await calibration(key, "?metric=revenue")).json()).metrics).toEqual([]);

    // The same data gives the same intervals.
    expect((await calibration(key)).body).toBe(res.body);
  });

  it("computes a large report off the event loop: the gateway keeps answering while it runs", async () => {
    const { accountId, key } = await createAccountWithKey();
    // 3 000 outcomes over 300 rankings: seconds of bootstrapping, straight into the table.
    const requestIds = Array.from({ length: 300 }, () => randomUUID());
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      requestId: requestIds[Math.floor(i / 10)]!,
      assetId: `a${i % 10}`,
      metric: "ctr",
      value: ((i * 7919) % 1000) / 1000,
      impressions: null,
      goal: i % 20 < 10 ? "engagement" : "purchase-intent",
      score: 1 + ((i * 104_729) % 400) / 100,
      scoreBeforeRefine: 1 + ((i * 15_485_863) % 400) / 100,
      simulated: true,
      rank: null,
      pAboveNext: null,
      requestCreatedAt: new Date(),
    }));
    await outcomesRepository(database.db).record(accountId, rows);

    const started = performance.now();
    let finished = false;
    const report = calibration(key).finally(() => (finished = true));
    const waits: number[] = [];
    while (!finished) {
      const asked = performance.now();
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      waits.push(performance.now() - asked);
      await new Promise((r) => setTimeout(r, 10));
    }
    const res = await report;
    const took = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(CalibrationResponse.parse(res.json()).metrics[0]!.pooled).toMatchObject({ n_outcomes: 3_000, n_requests: 300, enough_data: true });
    // On the event loop the report would be one long stall: the slowest health check as long as the report.
    expect(waits.length).toBeGreaterThan(5);
    expect(Math.max(...waits)).toBeLessThan(took / 4);
  }, 60_000);
});
