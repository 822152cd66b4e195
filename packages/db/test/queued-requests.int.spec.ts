import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestsRepository, type NewRequest } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

// A queued asynchronous request (issue 31: MAX_BACKGROUND_REQUESTS): written under its
// owner's lease as attempt 0, handed to the sweeps by `release`, started by the first sweep
// as attempt 1, and shown as queued only until then.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbqueued");
});
afterAll(async () => {
  await t?.destroy();
});

const repo = () => requestsRepository(t.db);
const queued = (): NewRequest => ({
  requestId: randomUUID(),
  accountId: "acct_q",
  keyId: "key_q",
  operation: "rank",
  mode: "async",
  fingerprint: "fp",
  progressTotal: 2,
  leaseOwner: "gw-a",
  leaseMs: 60_000,
  reservationId: "r",
  requestBody: "{}",
  acceptedBody: "{}",
  queued: true,
});

describe("queued asynchronous requests", () => {
  it("wait under their owner's lease until released, then the first sweep starts them as attempt 1", async () => {
    const r = queued();
    expect(await repo().start(r, null, 24)).toEqual({ kind: "claimed" });
    expect(await repo().find(r.requestId, r.accountId)).toMatchObject({ state: "running", queued: true, abandoned: false, progressDone: 0 });
    // Not before the 202 is certain: the owner's lease still holds it.
    expect(await repo().takeOverAbandonedAsync("gw-b", 60_000)).toBeNull();

    expect(await repo().release(r.requestId, "gw-other")).toBe(false);
    expect(await repo().release(r.requestId, "gw-a")).toBe(true);
    const started = await repo().takeOverAbandonedAsync("gw-b", 60_000);
    expect(started).toMatchObject({ requestId: r.requestId, attempt: 1, mode: "async" });
    expect(await repo().find(r.requestId, r.accountId)).toMatchObject({ state: "running", queued: false, abandoned: false });
    expect(await repo().takeOverAbandonedAsync("gw-c", 60_000)).toBeNull();
  });

  it("a refused one is forgotten like any other", async () => {
    const r = queued();
    await repo().start(r, "key-1", 24);
    await repo().abandon(r.requestId, "gw-a");
    expect(await repo().find(r.requestId, r.accountId)).toBeNull();
  });
});
