import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { MirrorCommandRefused, mirrorStatus, rebuildMirror, reconcile, reconcileFailed, reseedStream, type Ledger } from "../src/index.ts";
import { createHarness, eventually, type Harness } from "./harness.ts";

/** The rows of this test's stream in the mirror, to prove a halt leaves every one as it was. */
async function mirrorRows(h: Harness) {
  const stream = h.topo.streams.ledger.name;
  const db = h.tdb.db;
  return {
    events: await db.selectFrom("ledger_events").select(["stream_seq", "account_id", "payload"]).where("stream", "=", stream).orderBy("stream_seq").execute(),
    accounts: await db.selectFrom("ledger_accounts").select(["account_id", "granted", "used", "reserved", "last_seq", "event_count"]).where("stream", "=", stream).orderBy("account_id").execute(),
    reservations: await db.selectFrom("ledger_reservations").select(["account_id", "reservation_id", "status", "units_used"]).where("stream", "=", stream).orderBy("reservation_id").execute(),
  };
}

describe("a ledger mirror that knows which stream it follows", () => {
  let h: Harness;
  let ledger: Ledger;
  let client: LedgerClient;
  const js = () => jetstream(h.client);
  const deps = async () => ({ db: h.tdb.db, js: js(), jsm: await jetstreamManager(h.client), topo: h.topo });
  /** What NATS losing its data looks like: the stream is gone, and a replica's start (or anyone) creates it anew. */
  const recreateStream = async () => {
    const jsm = await jetstreamManager(h.client);
    await jsm.streams.delete(h.topo.streams.ledger.name);
    await jsm.streams.add({ ...h.topo.streams.ledger, num_replicas: 1 });
  };
  /**
   * The halt a replica records in Postgres. Between the delete and the re-add the guard rightly
   * reports "the stream does not exist" without recording anything, so that verdict is not the halt.
   */
  const recordedHalt = () =>
    eventually(
      async () => {
        const { mirror } = await mirrorStatus(await deps());
        return mirror?.status === "halted" && ledger.problem() === mirror.problem ? mirror.problem : null;
      },
      5_000,
      "the replica to record the halt",
    );
  const reconcileNow = async () => reconcile({ js: js(), jsm: await jetstreamManager(h.client), db: h.tdb.db, topo: h.topo });

  beforeAll(async () => {
    h = await createHarness();
    ledger = await h.replica({ guardIntervalMs: 100 });
    client = createLedgerClient(h.client, h.topo, { timeoutMs: 5_000 });
    for (const [accountId, credits] of [["acct-a", 50], ["acct-b", 7]] as const) expect((await client.grant({ accountId, grantId: "g1", credits })).ok).toBe(true);
    expect((await client.reserve({ accountId: "acct-a", keyId: "k1", reservationId: "r1", kind: "scoring", units: 4 })).ok).toBe(true);
    expect((await client.settle({ accountId: "acct-a", reservationId: "r1", unitsUsed: 3 })).ok).toBe(true);
    await h.projectionCaughtUp();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("halts on a recreated stream: readiness names the cause, billing refuses, every mirror row stays, reconcile fails", async () => {
    const before = await mirrorRows(h);
    expect(before.events).toHaveLength(4);
    expect(reconcileFailed(await reconcileNow())).toBe(false);

    await recreateStream();
    const problem = await recordedHalt();
    expect(problem).toMatch(new RegExp(`LEDGER stream "${h.topo.streams.ledger.name}" was created at .* but the mirror .* created at .*: the stream was recreated or reset`));
    // Billing on an empty history would answer 402 to everyone and write events that belong nowhere.
    await expect(client.balance({ accountId: "acct-a" })).rejects.toThrow(/billing is paused: The LEDGER stream/);
    await expect(client.grant({ accountId: "acct-c", grantId: "g1", credits: 5 })).rejects.toThrow(/billing is paused/);
    expect((await jetstreamManager(h.client).then((m) => m.streams.info(h.topo.streams.ledger.name))).state.messages).toBe(0);
    expect(await mirrorRows(h)).toEqual(before);

    const report = await reconcileNow();
    expect(report.identityProblem).toBe(problem);
    expect(reconcileFailed(report)).toBe(true);
    expect(report.mirror).toMatchObject({ status: "halted", lastSeq: 4 });
    // A rebuild of a halted mirror would be allowed; re-seeding from a mirror that is not halted is not.
    const status = await mirrorStatus(await deps());
    expect(status.mirror?.status).toBe("halted");
  });

  it("re-seeds the new stream from the mirror: the same events at the same sequences, billing resumes with the old balances", async () => {
    const before = await mirrorRows(h);
    const result = await reseedStream(await deps());
    expect(result).toMatchObject({ kept: 0, appended: 4, discarded: 0, streamLastSeq: 4 });
    await eventually(async () => ledger.problem() === null, 5_000, "the replica to resume");
    expect(await client.balance({ accountId: "acct-a" })).toEqual({ ok: true, value: { granted: 50, used: 3, reserved: 0, available: 47 } });
    await h.projectionCaughtUp();
    expect(await mirrorRows(h)).toEqual(before);
    const report = await reconcileNow();
    expect(report).toMatchObject({ identityProblem: null, differences: [], behind: [] });
    // New commands land after the re-seeded history.
    expect((await client.grant({ accountId: "acct-b", grantId: "g2", credits: 1 })).ok).toBe(true);
    expect((await h.events("acct-b")).map((e) => e.seq)).toEqual([2, 5]);
  });

  it("refuses to re-seed a stream holding events the mirror lacks, unless told to archive them", async () => {
    await h.projectionCaughtUp();
    await recreateStream();
    await recordedHalt();
    // An event written straight into the new stream (as a ledger could have in the seconds before it noticed).
    await js().publish(h.topo.ledgerAccount("acct-z"), JSON.stringify({ type: "CreditsGranted", grantId: "stray", credits: 9, at: Date.now() }));
    const refused = await reseedStream(await deps()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MirrorCommandRefused);
    expect(String((refused as Error).message)).toMatch(/holds 1 events, and its event at sequence 1 \(account acct-z\) is not the mirror's event #1/);

    const result = await reseedStream(await deps(), { discardStreamEvents: true });
    expect(result).toMatchObject({ kept: 0, appended: 5, discarded: 1 });
    const archived = await h.tdb.db.selectFrom("ledger_events_archive").select(["reason", "account_id", "stream_seq"]).execute();
    expect(archived).toEqual([{ reason: "reseed-discarded-stream-events", account_id: "acct-z", stream_seq: 1 }]);
    await eventually(async () => ledger.problem() === null, 5_000, "the replica to resume");
    expect(await client.balance({ accountId: "acct-b" })).toEqual({ ok: true, value: { granted: 8, used: 0, reserved: 0, available: 8 } });
  });

  it("rebuilds the mirror from the stream when the stream is the truth, archiving the mirror's rows", async () => {
    await h.projectionCaughtUp();
    await expect(rebuildMirror(await deps())).rejects.toThrow(/not halted/);
    await recreateStream();
    await recordedHalt();
    const result = await rebuildMirror(await deps());
    expect(result.archived).toBe(5);
    await eventually(async () => ledger.problem() === null, 5_000, "the replica to resume");
    // The empty stream is now the history: a fresh grant is the account's only event, and the mirror agrees.
    expect((await client.grant({ accountId: "acct-a", grantId: "after-rebuild", credits: 2 })).ok).toBe(true);
    expect(await client.balance({ accountId: "acct-a" })).toEqual({ ok: true, value: { granted: 2, used: 0, reserved: 0, available: 2 } });
    await h.projectionCaughtUp();
    expect((await mirrorRows(h)).accounts).toEqual([{ account_id: "acct-a", granted: 2, used: 0, reserved: 0, last_seq: 1, event_count: 1 }]);
    expect(await reconcileNow()).toMatchObject({ identityProblem: null, differences: [], behind: [] });
  });

  it("halts when the stream ends below what the mirror projected", async () => {
    await h.projectionCaughtUp();
    // The mirror says it saw more than the stream holds: what a stream that lost acknowledged writes looks like.
    await h.tdb.db.updateTable("ledger_mirrors").set({ last_seq: 40 }).where("stream", "=", h.topo.streams.ledger.name).execute();
    const problem = await eventually(async () => ledger.problem(), 5_000, "the halt");
    expect(problem).toMatch(/ends at sequence 1, but the mirror in PostgreSQL has already projected sequence 40: the stream lost acknowledged events/);
  });
});
