import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestsRepository, type NewRequest } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// Durable requests against a real PostgreSQL: Idempotency-Keys claimed once per account for
// 24 h, leases that another gateway takes over when they run out, results kept byte for byte
// with their images stored once, and retention.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbrequests");
});
afterAll(async () => {
  await t?.destroy();
});

const KEY_TTL_HOURS = 24;
const LEASE_MS = 15_000;
const repo = () => requestsRepository(t.db);

function newRequest(over: Partial<NewRequest> = {}): NewRequest {
  return { requestId: randomUUID(), accountId: "acct_a", keyId: "key_a", operation: "rank", mode: "sync", fingerprint: "fp-1", progressTotal: 2, leaseOwner: "gw-1", leaseMs: LEASE_MS, ...over };
}

/** A base64 PNG data URI of random bytes: long enough to be stored apart from the body. */
const image = () => `data:image/png;base64,${randomBytes(900).toString("base64")}`;
/** A rank response as the gateway sends it: each asset_url echoes the submitted URL. */
const rankBody = (requestId: string, urls: string[]) =>
  JSON.stringify({ request_id: requestId, ranked: urls.map((url, i) => ({ rank: i + 1, asset_url: url, asset_id: `a${i}`, score: 4 - i / 10 })), errors: [], summary: { credits_used: urls.length } });
const ok = (body: string) => ({ status: 200, headers: { "content-type": "application/json; charset=utf-8", "x-request-id": "x" }, body });

const expireLease = (requestId: string) => sql`update api_requests set lease_expires_at = now() - interval '1 second' where request_id = ${requestId}`.execute(t.db);
const imageRows = async (uris: string[]) => {
  const rows = await t.db.selectFrom("stored_images").select("data").where("data", "in", uris).execute();
  return rows.length;
};

describe("requests repository: Idempotency-Keys", () => {
  it("claims a key once; a second start with it says which request holds it and creates nothing", async () => {
    const first = newRequest({ fingerprint: "fp-first" });
    expect(await repo().start(first, "order-1", KEY_TTL_HOURS)).toEqual({ kind: "claimed" });
    const second = newRequest({ fingerprint: "fp-second", operation: "pairwise" });
    expect(await repo().start(second, "order-1", KEY_TTL_HOURS)).toEqual({ kind: "taken", requestId: first.requestId, operation: "rank", fingerprint: "fp-first" });
    expect(await repo().findById(second.requestId)).toBeNull();
    expect(await repo().find(first.requestId, first.accountId)).toMatchObject({ state: "running", fingerprint: "fp-first", abandoned: false });
  });

  it("lets only one of two requests racing with the same key claim it", async () => {
    const racers = [newRequest({ accountId: "acct_race", fingerprint: "fp-x" }), newRequest({ accountId: "acct_race", fingerprint: "fp-x" })];
    const claims = await Promise.all(racers.map((r) => repo().start(r, "race-key", KEY_TTL_HOURS)));
    expect(claims.filter((c) => c.kind === "claimed")).toHaveLength(1);
    const winner = racers[claims.findIndex((c) => c.kind === "claimed")]!;
    expect(claims.find((c) => c.kind === "taken")).toEqual({ kind: "taken", requestId: winner.requestId, operation: "rank", fingerprint: "fp-x" });
    const rows = await t.db.selectFrom("api_requests").select("request_id").where("account_id", "=", "acct_race").execute();
    expect(rows).toEqual([{ request_id: winner.requestId }]);
  });

  it("keeps keys per account: another account claims the same key for itself", async () => {
    const mine = newRequest({ accountId: "acct_keys_1" });
    const theirs = newRequest({ accountId: "acct_keys_2" });
    expect(await repo().start(mine, "shared-key", KEY_TTL_HOURS)).toEqual({ kind: "claimed" });
    expect(await repo().start(theirs, "shared-key", KEY_TTL_HOURS)).toEqual({ kind: "claimed" });
  });

  it("reclaims a key older than its 24 h for a new request, and keeps the old request fetchable", async () => {
    const old = newRequest({ accountId: "acct_ttl" });
    await repo().start(old, "daily-report", KEY_TTL_HOURS);
    expect(await repo().finish(old.requestId, old.leaseOwner, { state: "succeeded", response: ok(rankBody(old.requestId, [])) })).toBe(true);
    const age = (hours: number) => sql`update idempotency_keys set created_at = now() - make_interval(hours => ${hours}) where account_id = 'acct_ttl' and key = 'daily-report'`.execute(t.db);

    await age(23);
    const early = newRequest({ accountId: "acct_ttl", fingerprint: "fp-new" });
    expect(await repo().start(early, "daily-report", KEY_TTL_HOURS)).toMatchObject({ kind: "taken", requestId: old.requestId });

    await age(25);
    const fresh = newRequest({ accountId: "acct_ttl", fingerprint: "fp-new" });
    expect(await repo().start(fresh, "daily-report", KEY_TTL_HOURS)).toEqual({ kind: "claimed" });
    const key = await t.db.selectFrom("idempotency_keys").select(["request_id", "fingerprint", sql<boolean>`created_at > now() - interval '1 minute'`.as("renewed")]).where("account_id", "=", "acct_ttl").where("key", "=", "daily-report").executeTakeFirstOrThrow();
    expect(key).toEqual({ request_id: fresh.requestId, fingerprint: "fp-new", renewed: true });
    expect(await repo().find(old.requestId, "acct_ttl")).toMatchObject({ state: "succeeded" });
    // The reclaimed key is taken again, by the new request.
    expect(await repo().start(newRequest({ accountId: "acct_ttl" }), "daily-report", KEY_TTL_HOURS)).toMatchObject({ kind: "taken", requestId: fresh.requestId });
  });

  it("abandon forgets the request and its key: a retry with the key runs afresh", async () => {
    const refused = newRequest({ accountId: "acct_abandon" });
    await repo().start(refused, "retry-me", KEY_TTL_HOURS);
    // Only the owner abandons.
    await repo().abandon(refused.requestId, "gw-other");
    expect(await repo().findById(refused.requestId)).not.toBeNull();
    await repo().abandon(refused.requestId, refused.leaseOwner);
    expect(await repo().findById(refused.requestId)).toBeNull();
    expect(await t.db.selectFrom("idempotency_keys").selectAll().where("account_id", "=", "acct_abandon").execute()).toEqual([]);
    expect(await repo().start(newRequest({ accountId: "acct_abandon" }), "retry-me", KEY_TTL_HOURS)).toEqual({ kind: "claimed" });
  });

  it("abandon leaves a finished request alone", async () => {
    const done = newRequest({ accountId: "acct_abandon_done" });
    await repo().start(done, "kept", KEY_TTL_HOURS);
    await repo().finish(done.requestId, done.leaseOwner, { state: "succeeded", response: ok(rankBody(done.requestId, [])) });
    await repo().abandon(done.requestId, done.leaseOwner);
    expect(await repo().findById(done.requestId)).toMatchObject({ state: "succeeded" });
    expect(await repo().start(newRequest({ accountId: "acct_abandon_done" }), "kept", KEY_TTL_HOURS)).toMatchObject({ kind: "taken", requestId: done.requestId });
  });
});

describe("requests repository: results", () => {
  it("finishes with a body whose data URIs come back byte for byte, each image stored once", async () => {
    const [a, b] = [image(), image()];
    const r = newRequest({ accountId: "acct_images" });
    await repo().start(r, null, KEY_TTL_HOURS);
    const body = rankBody(r.requestId, [a, b, a]);
    expect(await repo().finish(r.requestId, r.leaseOwner, { state: "succeeded", response: ok(body) })).toBe(true);
    expect(await imageRows([a, b])).toBe(2);
    const stored = await t.db.selectFrom("api_requests").select("result_body").where("request_id", "=", r.requestId).executeTakeFirstOrThrow();
    expect(stored.result_body!.length).toBeLessThan(body.length - a.length - b.length);

    const view = await repo().find(r.requestId, "acct_images");
    expect(view!.result!.body).toBe(body);
    expect(Buffer.from(view!.result!.body).equals(Buffer.from(body))).toBe(true);
    expect(view).toMatchObject({ state: "succeeded", progressDone: 2, progressTotal: 2, abandoned: false, error: null });
    expect(view!.result!.status).toBe(200);
    expect(view!.result!.headers).toEqual(ok(body).headers);
    expect(view!.finishedAt).toBeInstanceOf(Date);

    // A second request with one of those images and a new one: only the new one is added.
    const c = image();
    const other = newRequest({ accountId: "acct_images_2" });
    await repo().recordFinished(other, ok(rankBody(other.requestId, [b, c])));
    expect(await imageRows([a, b, c])).toBe(3);
    const links = await t.db.selectFrom("api_request_images").select(["request_id"]).where("request_id", "in", [r.requestId, other.requestId]).execute();
    expect(links.filter((l) => l.request_id === r.requestId)).toHaveLength(2);
    expect(links.filter((l) => l.request_id === other.requestId)).toHaveLength(2);
    expect((await repo().find(other.requestId, "acct_images_2"))!.result!.body).toBe(rankBody(other.requestId, [b, c]));
  });

  it("records a synchronous request without a key as succeeded, its answer both accepted and result", async () => {
    const r = newRequest({ accountId: "acct_sync", operation: "pairwise", progressTotal: 3 });
    const body = JSON.stringify({ request_id: r.requestId, pairs: [], summary: {} });
    await repo().recordFinished(r, ok(body));
    const view = await repo().find(r.requestId, "acct_sync");
    expect(view).toMatchObject({ operation: "pairwise", mode: "sync", state: "succeeded", progressDone: 3, abandoned: false, webhook: null });
    expect(view!.result!.body).toBe(body);
    expect(view!.accepted).toEqual(view!.result);
  });

  it("records many finished requests in one call, each found with its own answer and images", async () => {
    const plain = [0, 1, 2].map(() => newRequest({ accountId: "acct_many" }));
    const shown = image();
    const withImage = newRequest({ accountId: "acct_many" });
    const items = [...plain.map((r) => ({ request: r, response: ok(rankBody(r.requestId, [])) })), { request: withImage, response: ok(rankBody(withImage.requestId, [shown])) }];
    await repo().recordFinishedMany(items);
    for (const { request, response } of items) {
      expect((await repo().find(request.requestId, "acct_many"))?.result?.body).toBe(response.body);
    }
    expect(await imageRows([shown])).toBe(1);
    // The single insert is all or nothing: a request id recorded already refuses the whole group.
    const again = newRequest({ accountId: "acct_many" });
    await expect(repo().recordFinishedMany([{ request: again, response: ok("{}") }, items[0]!])).rejects.toThrow();
    expect(await repo().find(again.requestId, "acct_many")).toBeNull();
  });

  it("shows an asynchronous request's 202 body, progress and failure", async () => {
    const accepted = JSON.stringify({ object: "request", status: "running" });
    const r = newRequest({ accountId: "acct_async", mode: "async", progressTotal: 8, acceptedBody: accepted, requestBody: JSON.stringify({ assets: [] }) });
    await repo().start(r, null, KEY_TTL_HOURS);
    await repo().setProgress(r.requestId, 3);
    const running = await repo().find(r.requestId, "acct_async");
    expect(running).toMatchObject({ mode: "async", state: "running", progressDone: 3, progressTotal: 8, result: null, finishedAt: null });
    expect(running!.accepted).toEqual({ status: 202, headers: {}, body: accepted });

    expect(await repo().finish(r.requestId, r.leaseOwner, { state: "failed", response: null, error: "No scoring model answered." })).toBe(true);
    const failed = await repo().find(r.requestId, "acct_async");
    expect(failed).toMatchObject({ state: "failed", error: "No scoring model answered.", result: null, progressDone: 3 });
    // The stored body is dropped once the request no longer needs to run again.
    const row = await t.db.selectFrom("api_requests").select(["request_body", "lease_owner", "lease_expires_at"]).where("request_id", "=", r.requestId).executeTakeFirstOrThrow();
    expect(row).toEqual({ request_body: null, lease_owner: null, lease_expires_at: null });
  });

  it("finds a request only for its own account", async () => {
    const r = newRequest({ accountId: "acct_owner" });
    await repo().recordFinished(r, ok(rankBody(r.requestId, [])));
    expect(await repo().find(r.requestId, "acct_owner")).not.toBeNull();
    expect(await repo().find(r.requestId, "acct_intruder")).toBeNull();
    expect(await repo().find(randomUUID(), "acct_owner")).toBeNull();
    expect((await repo().findById(r.requestId))!.accountId).toBe("acct_owner");
  });

  it("lets only the lease's owner finish, and only once", async () => {
    const r = newRequest();
    await repo().start(r, null, KEY_TTL_HOURS);
    expect(await repo().finish(r.requestId, "gw-intruder", { state: "succeeded", response: ok("{}") })).toBe(false);
    expect(await repo().findById(r.requestId)).toMatchObject({ state: "running", result: null });
    expect(await repo().finish(r.requestId, r.leaseOwner, { state: "succeeded", response: ok('{"first":true}') })).toBe(true);
    expect(await repo().finish(r.requestId, r.leaseOwner, { state: "succeeded", response: ok('{"second":true}') })).toBe(false);
    expect((await repo().findById(r.requestId))!.result!.body).toBe('{"first":true}');
  });

  it("queues a webhook delivery when a request with a webhook_url finishes", async () => {
    const r = newRequest({ accountId: "acct_hook", mode: "async", webhookUrl: "https://hooks.example.com/adrank", acceptedBody: "{}" });
    await repo().start(r, null, KEY_TTL_HOURS);
    expect((await repo().find(r.requestId, "acct_hook"))!.webhook).toEqual({ id: "", url: "https://hooks.example.com/adrank", state: "pending", attempts: 0 });
    await repo().finish(r.requestId, r.leaseOwner, { state: "succeeded", response: ok("{}"), webhookDeliveryId: "whd_test_1" });
    expect((await repo().find(r.requestId, "acct_hook"))!.webhook).toEqual({ id: "whd_test_1", url: "https://hooks.example.com/adrank", state: "pending", attempts: 0 });
  });
});

describe("requests repository: leases and takeover", () => {
  it("renews the owner's lease only, and not once the request has finished", async () => {
    const r = newRequest();
    await repo().start(r, null, KEY_TTL_HOURS);
    expect(await repo().renewLease(r.requestId, r.leaseOwner, LEASE_MS)).toBe(true);
    expect(await repo().renewLease(r.requestId, "gw-other", LEASE_MS)).toBe(false);
    await expireLease(r.requestId);
    // An owner that is merely late still renews while nobody has taken over.
    expect(await repo().renewLease(r.requestId, r.leaseOwner, LEASE_MS)).toBe(true);
    expect((await repo().findById(r.requestId))!.abandoned).toBe(false);
    await repo().finish(r.requestId, r.leaseOwner, { state: "succeeded", response: ok("{}") });
    expect(await repo().renewLease(r.requestId, r.leaseOwner, LEASE_MS)).toBe(false);
  });

  it("takes over a request only once its lease ran out, and only one of two racing gateways does", async () => {
    const r = newRequest({ reservationId: "res-1" });
    await repo().start(r, "takeover-key", KEY_TTL_HOURS);
    expect(await repo().takeOver(r.requestId, "gw-2", LEASE_MS)).toBeNull();

    await expireLease(r.requestId);
    expect((await repo().findById(r.requestId))!.abandoned).toBe(true);
    const [x, y] = await Promise.all([repo().takeOver(r.requestId, "gw-2", LEASE_MS), repo().takeOver(r.requestId, "gw-3", LEASE_MS)]);
    const winners = [x, y].filter((v) => v !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ requestId: r.requestId, accountId: r.accountId, keyId: r.keyId, operation: "rank", mode: "sync", attempt: 2, reservationId: "res-1", requestBody: null, webhookUrl: null });
    expect(winners[0]!.reservedAt).toBeInstanceOf(Date);
    const winner = x ? "gw-2" : "gw-3";

    // The dead owner lost the request: it can neither renew nor finish it; the new owner can.
    expect((await repo().findById(r.requestId))!.abandoned).toBe(false);
    expect(await repo().renewLease(r.requestId, r.leaseOwner, LEASE_MS)).toBe(false);
    expect(await repo().finish(r.requestId, r.leaseOwner, { state: "succeeded", response: ok('{"by":"dead"}') })).toBe(false);
    expect(await repo().finish(r.requestId, winner, { state: "succeeded", response: ok('{"by":"new"}') })).toBe(true);
    expect((await repo().findById(r.requestId))!.result!.body).toBe('{"by":"new"}');
    expect(await repo().takeOver(r.requestId, "gw-4", LEASE_MS)).toBeNull();
  });

  it("records the reservation a new attempt works under", async () => {
    const r = newRequest();
    await repo().start(r, null, KEY_TTL_HOURS);
    await expireLease(r.requestId);
    await repo().setReservation(r.requestId, `${r.requestId}-r2`);
    const taken = await repo().takeOver(r.requestId, "gw-2", LEASE_MS);
    expect(taken).toMatchObject({ reservationId: `${r.requestId}-r2`, attempt: 2 });
  });

  it("sweeps abandoned asynchronous requests only: not synchronous ones, not live leases, never one twice", async () => {
    // The sweep takes the oldest abandoned request of any account: start from an empty table.
    await t.db.deleteFrom("api_requests").execute();
    const a = image();
    const body = JSON.stringify({ assets: [{ url: a }, { url: a }], audience_id: "aud_1", async: true });
    const sync = newRequest({ accountId: "acct_sweep" });
    const live = newRequest({ accountId: "acct_sweep", mode: "async", requestBody: "{}", acceptedBody: "{}" });
    const dead1 = newRequest({ accountId: "acct_sweep", mode: "async", requestBody: body, acceptedBody: "{}", webhookUrl: "https://hooks.example.com/x" });
    const dead2 = newRequest({ accountId: "acct_sweep", mode: "async", requestBody: "{}", acceptedBody: "{}" });
    for (const r of [sync, live, dead1, dead2]) await repo().start(r, null, KEY_TTL_HOURS);
    await expireLease(sync.requestId);
    await sql`update api_requests set lease_expires_at = now() - interval '2 minutes' where request_id = ${dead1.requestId}`.execute(t.db);
    await expireLease(dead2.requestId);

    const [p, q, extra] = await Promise.all([repo().takeOverAbandonedAsync("gw-sweep-1", LEASE_MS), repo().takeOverAbandonedAsync("gw-sweep-2", LEASE_MS), repo().takeOverAbandonedAsync("gw-sweep-3", LEASE_MS)]);
    const taken = [p, q, extra].filter((v) => v !== null);
    expect(taken.map((v) => v!.requestId).sort()).toEqual([dead1.requestId, dead2.requestId].sort());
    const first = taken.find((v) => v!.requestId === dead1.requestId)!;
    // The body to run again comes back byte for byte, its image restored.
    expect(first).toMatchObject({ mode: "async", attempt: 2, requestBody: body, webhookUrl: "https://hooks.example.com/x" });
    expect(await repo().takeOverAbandonedAsync("gw-sweep-4", LEASE_MS)).toBeNull();
    expect((await repo().findById(sync.requestId))!.abandoned).toBe(true);
    expect(await repo().renewLease(live.requestId, live.leaseOwner, LEASE_MS)).toBe(true);
  });
});

describe("requests repository: retention", () => {
  it("purges old finished requests and old keys, then images no request uses, keeping shared ones", async () => {
    const [shared, onlyOld, onlyRunning] = [image(), image(), image()];
    const old = newRequest({ accountId: "acct_purge" });
    const recent = newRequest({ accountId: "acct_purge" });
    const oldOnly = newRequest({ accountId: "acct_purge" });
    const running = newRequest({ accountId: "acct_purge", mode: "async", requestBody: JSON.stringify({ url: onlyRunning }), acceptedBody: "{}" });
    await repo().start(old, "purge-key", KEY_TTL_HOURS);
    await repo().finish(old.requestId, old.leaseOwner, { state: "succeeded", response: ok(rankBody(old.requestId, [shared])) });
    await repo().recordFinished(recent, ok(rankBody(recent.requestId, [shared])));
    await repo().recordFinished(oldOnly, ok(rankBody(oldOnly.requestId, [onlyOld])));
    await repo().start(running, null, KEY_TTL_HOURS);
    await sql`update api_requests set created_at = now() - interval '31 days', finished_at = now() - interval '31 days' where request_id in (${old.requestId}, ${oldOnly.requestId})`.execute(t.db);
    await sql`update api_requests set created_at = now() - interval '40 days' where request_id = ${running.requestId}`.execute(t.db);
    await sql`update idempotency_keys set created_at = now() - interval '31 days' where account_id = 'acct_purge'`.execute(t.db);
    expect(await imageRows([shared, onlyOld, onlyRunning])).toBe(3);

    expect(await repo().purge(30, KEY_TTL_HOURS)).toBe(2);
    expect(await repo().findById(old.requestId)).toBeNull();
    expect(await repo().findById(oldOnly.requestId)).toBeNull();
    expect((await repo().findById(recent.requestId))!.result!.body).toBe(rankBody(recent.requestId, [shared]));
    expect(await repo().findById(running.requestId)).toMatchObject({ state: "running" });
    expect(await t.db.selectFrom("idempotency_keys").selectAll().where("account_id", "=", "acct_purge").execute()).toEqual([]);
    expect(await t.db.selectFrom("stored_images").select("data").where("data", "in", [shared, onlyOld, onlyRunning]).execute()).toEqual(expect.arrayContaining([{ data: shared }, { data: onlyRunning }]));
    expect(await imageRows([shared, onlyOld, onlyRunning])).toBe(2);
    // Nothing more to purge.
    expect(await repo().purge(30, KEY_TTL_HOURS)).toBe(0);
  });

  it("lists an account's requests newest first, with their webhook's state", async () => {
    const accountId = "acct_list";
    const first = newRequest({ accountId });
    const second = newRequest({ accountId, mode: "async", webhookUrl: "https://hooks.example.com/l", acceptedBody: "{}", operation: "pairwise" });
    await repo().recordFinished(first, ok("{}"));
    await sql`update api_requests set created_at = now() - interval '1 hour' where request_id = ${first.requestId}`.execute(t.db);
    await repo().start(second, null, KEY_TTL_HOURS);
    await repo().finish(second.requestId, second.leaseOwner, { state: "succeeded", response: ok("{}"), webhookDeliveryId: "whd_list_1" });
    const list = await repo().listForAccount(accountId, { limit: 10 });
    expect(list.map((r) => [r.requestId, r.operation, r.state, r.status, r.webhookState])).toEqual([
      [second.requestId, "pairwise", "succeeded", 200, "pending"],
      [first.requestId, "rank", "succeeded", 200, null],
    ]);
    expect(await repo().listForAccount(accountId, { limit: 10, before: list[0]!.createdAt })).toHaveLength(1);
    expect(await repo().listForAccount("acct_nobody", { limit: 10 })).toEqual([]);
  });
});
