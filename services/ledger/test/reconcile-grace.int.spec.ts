import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createLedgerClient } from "@adrank/ledger-client";
import { reconcile, reconcileFailed } from "../src/index.ts";
import { createHarness, type Harness } from "./harness.ts";

describe("reconcile and a mirror that lags", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
    // No replica projects: every event stays unmirrored, as while Postgres is away.
    await h.replica({ projection: false });
    const ledger = createLedgerClient(h.client, h.topo, { timeoutMs: 5_000 });
    expect((await ledger.grant({ accountId: "acct-lag", grantId: "g1", credits: 5 })).ok).toBe(true);
    expect((await ledger.grant({ accountId: "acct-lag", grantId: "g2", credits: 5 })).ok).toBe(true);
  });
  afterAll(async () => {
    await h?.close();
  });

  const run = async (now: number) => reconcile({ js: jetstream(h.client), jsm: await jetstreamManager(h.client), db: h.tdb.db, topo: h.topo, graceMs: 30_000, now: () => now });

  it("reports the lag with what is missing, and passes while the oldest missing event is within the grace period", async () => {
    const report = await run(Date.now());
    expect(report.behind).toEqual([expect.objectContaining({ accountId: "acct-lag", streamSeq: 2, projectedSeq: 0, missingEvents: 2, overdue: false })]);
    expect(report.behind[0]!.oldestMissingAgeMs).toBeLessThan(30_000);
    expect(reconcileFailed(report)).toBe(false);
  });

  it("fails once the oldest missing event is older than the grace period", async () => {
    const report = await run(Date.now() + 31_000);
    expect(report.behind).toEqual([expect.objectContaining({ accountId: "acct-lag", missingEvents: 2, overdue: true })]);
    expect(report.behind[0]!.oldestMissingAgeMs).toBeGreaterThan(30_000);
    expect(reconcileFailed(report)).toBe(true);
  });
});
