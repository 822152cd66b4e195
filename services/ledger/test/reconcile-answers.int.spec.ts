import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { requestsRepository, settlementsRepository } from "@adrank/db/repositories";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { reconcile, reconcileFailed } from "../src/index.ts";
import { createHarness, type Harness } from "./harness.ts";

// Issue 33: reconcile compares what each stored answer told its caller about credits with what
// the LEDGER stream charged its reservation.

const answer = (requestId: string, creditsUsed: number, creditsRemaining: number | null, status: "confirmed" | "pending") =>
  JSON.stringify({ request_id: requestId, ranked: [], errors: [], summary: { scoring_evaluations: creditsUsed, credits_used: creditsUsed, credits_remaining: creditsRemaining, credits_status: status } });

describe("reconcile and the stored answers", () => {
  let h: Harness;
  let ledger: LedgerClient;
  const accountId = "acct-answers";
  beforeAll(async () => {
    h = await createHarness();
    await h.replica();
    ledger = createLedgerClient(h.client, h.topo, { timeoutMs: 5_000 });
    expect((await ledger.grant({ accountId, grantId: "g1", credits: 50 })).ok).toBe(true);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A request as the gateway runs it: reserved, maybe settled, and its answer stored. */
  async function request(settle: number | null, told: { creditsUsed: number; remaining: number | null; status: "confirmed" | "pending" }) {
    const id = randomUUID();
    expect((await ledger.reserve({ accountId, keyId: "k1", reservationId: id, kind: "scoring", units: 3 })).ok).toBe(true);
    if (settle !== null) expect((await ledger.settle({ accountId, reservationId: id, unitsUsed: settle })).ok).toBe(true);
    await requestsRepository(h.tdb.db).recordFinishedMany([
      {
        request: { requestId: id, namespace: h.topo.namespace, accountId, keyId: "k1", operation: "rank", fingerprint: "-", progressTotal: 1 },
        response: { status: 200, headers: {}, body: answer(id, told.creditsUsed, told.remaining, told.status) },
      },
    ]);
    return id;
  }
  const run = async (graceMs = 30_000) => reconcile({ js: jetstream(h.client), jsm: await jetstreamManager(h.client), db: h.tdb.db, topo: h.topo, graceMs });

  it("agrees with answers that told what was charged, and with a pending one whose settle waits in the outbox", async () => {
    await request(2, { creditsUsed: 2, remaining: 48, status: "confirmed" });
    const pending = await request(null, { creditsUsed: 1, remaining: null, status: "pending" });
    await settlementsRepository(h.tdb.db).record({ stream: h.topo.streams.ledger.name, reservationId: pending, requestId: pending, accountId, unitsUsed: 1, modelUsage: null }, 60_000);
    await h.projectionCaughtUp();
    const report = await run();
    expect(report.answers).toEqual({ checked: 2, pending: 1, differences: [] });
    expect(reconcileFailed(report)).toBe(false);

    // Once the relay has applied it, the pending answer agrees too.
    expect((await ledger.settle({ accountId, reservationId: pending, unitsUsed: 1 })).ok).toBe(true);
    await h.projectionCaughtUp();
    expect((await run()).answers).toEqual({ checked: 2, pending: 1, differences: [] });
  });

  it("names an answer that told 0 while the stream charged, and a pending one left pending past the grace period", async () => {
    const lied = await request(2, { creditsUsed: 0, remaining: null, status: "confirmed" });
    const stale = await request(null, { creditsUsed: 1, remaining: null, status: "pending" });
    await sql`update api_requests set finished_at = now() - interval '2 minutes' where request_id = ${stale}`.execute(h.tdb.db);
    await h.projectionCaughtUp();
    const report = await run();
    expect(report.answers.differences).toHaveLength(2);
    expect(report.answers.differences).toEqual(
      expect.arrayContaining([
        { accountId, requestId: lied, told: "credits_used 0", charged: "settled 2" },
        { accountId, requestId: stale, told: "credits_used 1 (pending), still pending after the 30 s grace period", charged: "open" },
      ]),
    );
    expect(reconcileFailed(report)).toBe(true);
  });
});
