import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { FastifyInstance } from "fastify";
import { issueKey } from "@adrank/api-keys";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { createImageIntake } from "@adrank/images";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, openImageStore, topology, type NatsConnection } from "@adrank/messaging";
import { createLogger } from "@adrank/runtime";
import { buildApp } from "../src/app.ts";

// The whole app through `inject`, on a real Postgres schema and a real NATS namespace. No
// ledger service runs here: reservations fail as "ledger unavailable", which is the 500 path;
// every check that happens before the reservation (auth, validation, audiences) is complete.

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const PNG_1x1 = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const audience = { name: "Commuters" };

let database: TestDatabase;
let nc: NatsConnection;
let app: FastifyInstance;
let clock = Date.now();
const topo = topology(`t${randomBytes(5).toString("hex")}`);

async function createAccountWithKey(name: string) {
  const id = `acct_${randomBytes(6).toString("hex")}`;
  await database.db.insertInto("accounts").values({ id, name }).execute();
  const issued = issueKey(randomBytes(41));
  const keyId = `key_${randomBytes(6).toString("hex")}`;
  await database.db.insertInto("api_keys").values({ id: keyId, account_id: id, name: "test", lookup: issued.lookup, hash: issued.hash, last_four: issued.lastFour }).execute();
  return { accountId: id, keyId, key: issued.raw };
}

const post = (url: string, key: string | null, payload: unknown) =>
  app.inject({ method: "POST", url, headers: key ? { authorization: `Bearer ${key}` } : {}, payload: payload as object });

beforeAll(async () => {
  database = await createTestDatabase("gw");
  nc = await connectToNats({ url: NATS_URL, name: "gateway-app-test" });
  app = await buildApp({
    config: { RANK_TIMEOUT_MS: 5_000, PAIRWISE_TIMEOUT_MS: 5_000, PRESENCE_TIMEOUT_MS: 200, ASSET_CONCURRENCY: 4, BODY_LIMIT_BYTES: 25 * 1024 * 1024, KEY_CACHE_TTL_MS: 5_000, LEDGER_TIMEOUT_MS: 500 },
    logger: createLogger("gateway-test", "silent"),
    db: database.db,
    bus: { nc, js: jetstream(nc), topo, images: await openImageStore(nc, topo) },
    ledger: createLedgerClient(nc, topo, { timeoutMs: 500 }),
    intake: createImageIntake({ cacheBytes: 0 }),
    now: () => clock,
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

describe("health, documents and docs", () => {
  it("answers /healthz while the process is up", async () => {
    const res = await app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reports on /readyz which dependency is down", async () => {
    const res = await app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: "unavailable", failed: ["ledger"], checks: { nats: "up", postgres: "up", ledger: "down" } });
  });

  it("serves the OpenAPI 3.1 document, version 1.7.0, with every operation including rankAcrossAudiences, audiences, getRequest, recordOutcomes and getCalibration", async () => {
    const res = await app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.7.0");
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operations).toEqual(expect.arrayContaining(["rankAssets", "rankAcrossAudiences", "compareCreativePairs", "listAudiences", "createAudience", "getRequest", "recordOutcomes", "getCalibration"]));
  });

  it("serves a docs page whose scripts and styles are all local", async () => {
    const page = await app.inject({ method: "GET", url: "/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    const refs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => /^(https?:)?\/\//.test(r))).toEqual([]);
    for (const ref of refs) {
      const asset = await app.inject({ method: "GET", url: new URL(ref, "http://local/docs").pathname });
      expect(asset.statusCode, ref).toBe(200);
    }
    const json = await app.inject({ method: "GET", url: "/docs/json" });
    expect(json.json().info.version).toBe("1.7.0");
  });
});

describe("authentication", () => {
  it("answers 401 the same way without a key, with a malformed key, an unknown key and a wrong secret", async () => {
    const { key } = await createAccountWithKey("auth");
    const unknown = issueKey(randomBytes(41)).raw;
    const wrongSecret = key.slice(0, -6) + "ZZZZZZ";
    const bodies = [];
    for (const header of [undefined, "Bearer", "Bearer agk_live_short", `Token ${key}`, `Bearer ${unknown}`, `Bearer ${wrongSecret}`]) {
      const res = await app.inject({ method: "POST", url: "/api/v1/rank", headers: header ? { authorization: header } : {}, payload: { assets: [{ url: PNG_1x1 }], audience } });
      expect(res.statusCode, header).toBe(401);
      expect(res.headers["x-request-id"]).toBeTruthy();
      bodies.push(res.body);
    }
    expect(new Set(bodies).size).toBe(1);
    expect(Object.keys(JSON.parse(bodies[0]!))).toEqual(["error"]);
  });

  it("refuses a revoked key once the cached look-up is older than 5 s", async () => {
    const { key, keyId } = await createAccountWithKey("revoked");
    const list = () => app.inject({ method: "GET", url: "/api/v1/audiences", headers: { authorization: `Bearer ${key}` } });
    expect((await list()).statusCode).toBe(200);
    await database.db.updateTable("api_keys").set({ revoked_at: new Date() }).where("id", "=", keyId).execute();
    clock += 4_000;
    expect((await list()).statusCode).toBe(200);
    clock += 1_000;
    expect((await list()).statusCode).toBe(401);
  });

  it("records last use without a write per request", async () => {
    const { key, keyId } = await createAccountWithKey("usage");
    for (let i = 0; i < 3; i++) await app.inject({ method: "GET", url: "/api/v1/audiences", headers: { authorization: `Bearer ${key}` } });
    await new Promise((r) => setTimeout(r, 50));
    const row = await database.db.selectFrom("api_keys").select("last_used_at").where("id", "=", keyId).executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });
});

describe("request validation", () => {
  let key: string;
  beforeAll(async () => {
    ({ key } = await createAccountWithKey("validation"));
  });

  it("answers 400 for a body that is not JSON, sent as something else, or missing", async () => {
    const auth = { authorization: `Bearer ${key}` };
    const notJson = await app.inject({ method: "POST", url: "/api/v1/rank", headers: { ...auth, "content-type": "application/json" }, payload: "{assets:" });
    const textPlain = await app.inject({ method: "POST", url: "/api/v1/rank", headers: { ...auth, "content-type": "text/plain" }, payload: JSON.stringify({ assets: [] }) });
    const form = await app.inject({ method: "POST", url: "/api/v1/rank", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, payload: "a=1" });
    const empty = await app.inject({ method: "POST", url: "/api/v1/rank", headers: auth });
    for (const res of [notJson, textPlain, form, empty]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(typeof res.json().error).toBe("string");
      expect(res.body).not.toMatch(/at \w+ \(|node_modules|FST_/);
    }
  });

  it("answers 413 for a body over 25 MiB", async () => {
    const huge = JSON.stringify({ assets: [{ url: `data:image/png;base64,${"A".repeat(25 * 1024 * 1024)}` }], audience });
    const res = await app.inject({ method: "POST", url: "/api/v1/rank", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, payload: huge });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatch(/25 MiB/);
  });

  it.each([
    ["no assets", { assets: [], audience }, "assets"],
    ["21 assets", { assets: Array.from({ length: 21 }, () => ({ url: PNG_1x1 })), audience }, "assets"],
    ["an unknown goal", { assets: [{ url: PNG_1x1 }], audience, goal: "virality" }, "goal"],
    ["an unknown asset_type", { assets: [{ url: PNG_1x1 }], audience, asset_type: "Poster" }, "asset_type"],
    ["an unknown asset-level asset_type", { assets: [{ url: PNG_1x1, asset_type: "Poster" }], audience }, "assets"],
    ["an unknown property", { assets: [{ url: PNG_1x1 }], audience, colour: "red" }, null],
    ["no audience", { assets: [{ url: PNG_1x1 }] }, null],
    ["both audiences", { assets: [{ url: PNG_1x1 }], audience, audience_id: "aud_1" }, null],
    ["a url that is neither https nor a data URI", { assets: [{ url: "http://example.com/a.png" }], audience }, "assets"],
  ])("answers 422 for %s", async (_what, body, field) => {
    const res = await post("/api/v1/rank", key, body);
    expect(res.statusCode, res.body).toBe(422);
    const json = res.json();
    expect(typeof json.error).toBe("string");
    if (field) expect(json.field).toMatch(new RegExp(`^${field}`));
  });

  it("answers 404 for an unknown route with a JSON error", async () => {
    const res = await app.inject({ method: "GET", url: "/api/v1/nothing" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty("error");
  });

  it("sends no CORS headers and does not answer a preflight", async () => {
    const res = await app.inject({ method: "OPTIONS", url: "/api/v1/rank", headers: { origin: "https://example.com", "access-control-request-method": "POST" } });
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});

describe("saved audiences", () => {
  it("creates and lists audiences of the caller's account only", async () => {
    const a = await createAccountWithKey("a");
    const b = await createAccountWithKey("b");
    const created = await post("/api/v1/audiences", a.key, { name: "Night-shift nurses", description: "Buying comfortable shoes", demographics: { ageRange: "35-44" } });
    expect(created.statusCode, created.body).toBe(201);
    const audienceRecord = created.json();
    expect(audienceRecord).toMatchObject({ id: expect.stringMatching(/^aud_[0-9a-f]+$/), name: "Night-shift nurses" });
    const listA = await app.inject({ method: "GET", url: "/api/v1/audiences", headers: { authorization: `Bearer ${a.key}` } });
    const listB = await app.inject({ method: "GET", url: "/api/v1/audiences", headers: { authorization: `Bearer ${b.key}` } });
    expect(listA.body).toContain(audienceRecord.id);
    expect(listB.statusCode).toBe(200);
    expect(listB.body).not.toContain(audienceRecord.id);
  });

  it("answers 422 for an invalid audience and 401 without a key", async () => {
    const a = await createAccountWithKey("invalid-audience");
    expect((await post("/api/v1/audiences", a.key, { description: "no name" })).statusCode).toBe(422);
    expect((await post("/api/v1/audiences", null, { name: "x" })).statusCode).toBe(401);
  });

  it("answers 404 for another account's audience_id before any metering, and 500 saying nothing was charged when the ledger is down", async () => {
    const owner = await createAccountWithKey("owner");
    const stranger = await createAccountWithKey("stranger");
    const id = (await post("/api/v1/audiences", owner.key, { name: "Owners only" })).json().id as string;
    const foreign = await post("/api/v1/rank", stranger.key, { assets: [{ url: PNG_1x1 }], audience_id: id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toMatch(/audience/i);
    const missing = await post("/api/v1/rank", owner.key, { assets: [{ url: PNG_1x1 }], audience_id: "aud_0000" });
    expect(missing.statusCode).toBe(404);
    // The owner's request gets past the audience to the reservation, which cannot be made here.
    const own = await post("/api/v1/rank", owner.key, { assets: [{ url: PNG_1x1 }], audience_id: id });
    expect(own.statusCode).toBe(500);
    expect(own.json()).toMatchObject({ error: expect.stringMatching(/nothing was charged/), request_id: own.headers["x-request-id"] });
    expect(own.body).not.toMatch(/no_responders|svc\.ledger|at \w+ \(/);
  });

  it("pairwise: 422 names the offending field, 404 for another account's audience, 503 with Retry-After when no voter runs", async () => {
    const owner = await createAccountWithKey("pairwise owner");
    const pair = { pair_id: "p1", a: { id: "a", image_url: PNG_1x1 }, b: { id: "b", image_url: PNG_1x1 } };
    const tooMany = await post("/api/v1/pairwise", owner.key, { pairs: Array.from({ length: 11 }, (_, i) => ({ ...pair, pair_id: `p${i}` })), audience });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().field).toBe("pairs");
    const unknownKey = await post("/api/v1/pairwise", owner.key, { pairs: [{ ...pair, a: { ...pair.a, url: "x" } }], audience });
    expect(unknownKey.statusCode).toBe(422);
    expect(unknownKey.json().field).toMatch(/^pairs\[0\]\.a/);
    expect((await post("/api/v1/pairwise", owner.key, { pairs: [pair], audience_id: "aud_0000" })).statusCode).toBe(404);
    // No panel-voter process answers in this test: nothing can vote, so nothing is reserved.
    const unavailable = await post("/api/v1/pairwise", owner.key, { pairs: [pair], audience });
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.headers["retry-after"]).toBe("5");
    expect(unavailable.json().error).toMatch(/No panel voter is available.*nothing was charged/);
    expect((await post("/api/v1/pairwise", null, { pairs: [pair], audience })).statusCode).toBe(401);
  });
});
