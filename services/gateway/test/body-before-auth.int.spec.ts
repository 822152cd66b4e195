import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument } from "@adrank/api-docs";
import { issueKey } from "@adrank/api-keys";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { createImageIntake } from "@adrank/images";
import { createLedgerClient } from "@adrank/ledger-client";
import { connectToNats, openImageStore, topology, type NatsConnection } from "@adrank/messaging";
import { createLogger } from "@adrank/runtime";
import { buildApp } from "../src/app.ts";

// Which bytes of a body the gateway reads before it knows who is calling. Every operation of
// the OpenAPI document authenticates in onRequest, before a byte of its body is read; an
// unknown route answers 404 before its body; a route without a key (the health checks, the
// docs, and any route added later without app.authenticate) takes at most 16 KiB, judged
// from the headers. Bodies are streams that count what was pulled from them, read at the
// moment the answer is sent.

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const MiB = 1024 * 1024;

let database: TestDatabase;
let nc: NatsConnection;
let app: FastifyInstance;
let key: string;
const topo = topology(`t${randomBytes(5).toString("hex")}`);

/** Bytes pulled from each request's body when its answer was sent, by the request's x-body-id. */
const pulledAtAnswer = new Map<string, number>();
const bodies = new Map<string, () => number>();

/** A JSON-typed body (`bytes` bytes of `[`, or the given bytes) handed out only as it is read. */
function trackedBody(content: number | Buffer) {
  const bytes = typeof content === "number" ? Buffer.alloc(content, "[") : content;
  const id = randomBytes(6).toString("hex");
  let pulled = 0;
  const stream = new Readable({
    read() {
      if (pulled >= bytes.length) return void this.push(null);
      const n = Math.min(64 * 1024, bytes.length - pulled);
      this.push(bytes.subarray(pulled, pulled + n));
      pulled += n;
    },
  });
  bodies.set(id, () => pulled);
  return { id, stream, headers: { "content-type": "application/json", "content-length": String(bytes.length), "x-body-id": id } };
}

let nextAddress = 0;
/** Each call from an address of its own unless one is given: made-up keys count per address. */
async function send(method: string, url: string, content: number | Buffer, headers: Record<string, string> = {}, remoteAddress = `198.18.${nextAddress >> 8}.${nextAddress++ & 255}`) {
  const body = trackedBody(content);
  const res = await app.inject({ method: method as "POST", url, payload: body.stream, headers: { ...body.headers, ...headers }, remoteAddress });
  return { res, pulled: pulledAtAnswer.get(body.id) };
}

beforeAll(async () => {
  database = await createTestDatabase("gwbody");
  nc = await connectToNats({ url: NATS_URL, name: "gateway-body-test" });
  app = await buildApp({
    config: { RANK_TIMEOUT_MS: 5_000, PAIRWISE_TIMEOUT_MS: 5_000, PRESENCE_TIMEOUT_MS: 200, ASSET_CONCURRENCY: 4, BODY_LIMIT_BYTES: 25 * MiB, KEY_CACHE_TTL_MS: 5_000, LEDGER_TIMEOUT_MS: 500, AUTH_FAILURE_LIMIT_PER_ADDRESS: 3 },
    logger: createLogger("gateway-test", "silent"),
    db: database.db,
    bus: { nc, js: jetstream(nc), topo, images: await openImageStore(nc, topo) },
    ledger: createLedgerClient(nc, topo, { timeoutMs: 500 }),
    intake: createImageIntake({ cacheBytes: 0 }),
  });
  // A route someone might add without app.authenticate: the small limit must hold there too.
  app.post("/test/open", async (request) => ({ received: JSON.stringify(request.body).length }));
  app.addHook("onSend", async (request) => {
    const id = request.headers["x-body-id"];
    if (typeof id === "string") pulledAtAnswer.set(id, bodies.get(id)?.() ?? -1);
  });
  await app.ready();
  const accountId = `acct_${randomBytes(6).toString("hex")}`;
  await database.db.insertInto("accounts").values({ id: accountId, name: "body" }).execute();
  const issued = issueKey(randomBytes(41));
  await database.db.insertInto("api_keys").values({ id: `key_${randomBytes(6).toString("hex")}`, account_id: accountId, name: "t", lookup: issued.lookup, hash: issued.hash, last_four: issued.lastFour }).execute();
  key = issued.raw;
});

afterAll(async () => {
  await app?.close();
  const jsm = await jetstreamManager(nc);
  for await (const s of jsm.streams.list()) if (s.config.name.includes(`${topo.namespace}_`)) await jsm.streams.delete(s.config.name);
  await nc?.close();
  await database?.destroy();
});

const operations = Object.entries((buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> }).paths).flatMap(([path, ops]) =>
  Object.keys(ops).map((method) => ({ method: method.toUpperCase(), url: path.replace("{request_id}", "6f1c1a5e-9a4b-4c1e-8b8a-0c6f0b9f3a11") })),
);

describe("bodies before authentication", () => {
  it("the tracked body shows what a route reads: a keyed POST reads all of it", async () => {
    const body = Buffer.from(JSON.stringify({ name: "Commuters" }));
    const created = await send("POST", "/api/v1/audiences", body, { authorization: `Bearer ${key}` });
    expect(created.res.statusCode).toBe(201);
    expect(created.pulled).toBe(body.length);
    // And a 1 MiB body with the key is read whole before the parser refuses it.
    const refused = await send("POST", "/api/v1/audiences", MiB, { authorization: `Bearer ${key}` });
    expect(refused.res.statusCode).toBe(400);
    expect(refused.pulled).toBe(MiB);
  });

  it.each(operations)("$method $url answers 401 before reading a byte of a 1 MiB body, without a key and with a made-up one", async ({ method, url }) => {
    for (const authorization of [undefined, `Bearer ${issueKey(randomBytes(41)).raw}`]) {
      const { res, pulled } = await send(method, url, MiB, authorization ? { authorization } : {});
      expect(res.statusCode).toBe(401);
      expect(pulled).toBe(0);
    }
  });

  it.each([
    ["POST", "/api/v1/x"],
    ["PUT", "/nothing/here"],
    ["POST", "/healthz"],
    ["DELETE", "/api/v1/rank"],
  ])("%s %s: an unknown route answers 404 before reading a byte of its body", async (method, url) => {
    const { res, pulled } = await send(method, url, 24 * MiB);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: `No route for ${method} ${url}.` });
    expect(pulled).toBe(0);
  });

  it("a route without a key takes 16 KiB, and refuses more (or a body of no declared length) with 413 before reading it", async () => {
    const ok = await send("POST", "/test/open", Buffer.from(`"${"x".repeat(16 * 1024 - 2)}"`));
    expect(ok.res.statusCode).toBe(200);
    expect(ok.pulled).toBe(16 * 1024);
    for (const [method, url] of [["POST", "/test/open"], ["GET", "/healthz"], ["GET", "/api/v1/openapi.json"], ["GET", "/docs"]] as const) {
      const { res, pulled } = await send(method, url, 16 * 1024 + 1);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: "A request without an API key may send a body of at most 16 KiB, with its Content-Length." });
      expect(pulled).toBe(0);
    }
    const chunked = await app.inject({ method: "POST", url: "/test/open", payload: Readable.from([Buffer.from("{}")]), headers: { "content-type": "application/json", "transfer-encoding": "chunked" } });
    expect(chunked.statusCode).toBe(413);
    // Without a body, the routes without a key answer as always.
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("refuses JSON nested past 32 levels with 400 and a sentence, and judges 32 by the schema as before", async () => {
    const rank = (depth: number) => ({ assets: [{ url: "https://cdn.example/a.png", copy_context: JSON.parse(`${'{"a":'.repeat(depth)}"x"${"}".repeat(depth)}`) }], audience: { name: "x" } });
    const post = (payload: object) => app.inject({ method: "POST", url: "/api/v1/rank", payload, headers: { authorization: `Bearer ${key}` }, remoteAddress: "192.0.2.10" });
    const deep = await post(rank(30));
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toEqual({ error: "The request body nests arrays and objects more than 32 levels deep, the most this API accepts." });
    expect((await post(rank(29))).statusCode).toBe(422);
  });

  it("answers 429 to an address after its limit of made-up keys, before any look-up, and counts by the socket's address unless a proxy is trusted", async () => {
    const guess = (remoteAddress: string, headers: Record<string, string> = {}) =>
      app.inject({ method: "GET", url: "/api/v1/audiences", remoteAddress, headers: { authorization: `Bearer ${issueKey(randomBytes(41)).raw}`, ...headers } });
    // GATEWAY_TRUST_PROXY is 0 here: X-Forwarded-For is the caller's own text and changes nothing.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await guess("203.0.113.7", { "x-forwarded-for": `198.51.100.${i}` })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await guess("203.0.113.7");
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    expect(limited.json()).toEqual({ error: expect.stringMatching(/^Too many requests with an invalid API key/), retryAfter: Number(limited.headers["retry-after"]), resetAt: expect.any(Number) });
    // An IPv6 caller is counted by its /64: a fresh address in it does not start a fresh count.
    for (let i = 0; i < 3; i++) await guess(`2001:db8:1:2::${i + 1}`);
    expect((await guess("2001:db8:1:2:ffff::9")).statusCode).toBe(429);
    expect((await guess("2001:db8:1:3::1")).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/api/v1/audiences", remoteAddress: "192.0.2.44", headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
  });
});
