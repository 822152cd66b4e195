import { randomBytes } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { evolve, initialState, type AccountState, type LedgerEvent } from "@adrank/ledger-domain";
import { connectToNats, topology, type NatsConnection, type Topology } from "@adrank/messaging";
import { createEventLog, PROJECTION_CONSUMER, silentLogger, startLedger, type Ledger, type LedgerDeps, type StoredEvent } from "../src/index.ts";

export const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

/** A private namespace, database schema and client connection for one test file. */
export interface Harness {
  topo: Topology;
  tdb: TestDatabase;
  client: NatsConnection;
  /** Starts an in-process replica on its own NATS connection. */
  replica(options?: Partial<LedgerDeps>): Promise<Ledger>;
  events(accountId: string): Promise<StoredEvent[]>;
  fold(accountId: string): Promise<{ state: AccountState; lastSeq: number; events: LedgerEvent[] }>;
  /** Waits until the projection consumer has nothing pending or unacked. */
  projectionCaughtUp(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const topo = topology(`t${randomBytes(5).toString("hex")}`);
  const tdb = await createTestDatabase("ledger");
  const client = await connectToNats({ url: NATS_URL, name: "ledger-test-client" });
  const replicas: Array<{ ledger: Ledger; nc: NatsConnection }> = [];
  const jsm = await jetstreamManager(client);
  const log = () => createEventLog(jetstream(client), jsm, topo.streams.ledger.name);

  return {
    topo,
    tdb,
    client,
    async replica(options = {}) {
      const nc = await connectToNats({ url: NATS_URL, name: `ledger-test-replica-${replicas.length}` });
      const ledger = await startLedger({ nc, db: tdb.db, topo, logger: silentLogger, ...options });
      replicas.push({ ledger, nc });
      return ledger;
    },
    events: (accountId) => log().readAfter(topo.ledgerAccount(accountId), 0),
    async fold(accountId) {
      const stored = await log().readAfter(topo.ledgerAccount(accountId), 0);
      return { state: stored.reduce((s, e) => evolve(s, e.event), initialState()), lastSeq: stored.at(-1)?.seq ?? 0, events: stored.map((e) => e.event) };
    },
    async projectionCaughtUp(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        // The consumer is missing for a moment after an operator command removed it.
        const info = await jsm.consumers.info(topo.streams.ledger.name, topo.consumer(PROJECTION_CONSUMER)).catch(() => null);
        if (info && info.num_pending === 0 && info.num_ack_pending === 0) return;
        if (Date.now() > deadline) throw new Error(info ? `projection still behind: ${info.num_pending} pending, ${info.num_ack_pending} unacked` : "the projection consumer does not exist");
        await sleep(50);
      }
    },
    async close() {
      for (const r of replicas) {
        await r.ledger.stop().catch(() => {});
        await r.nc.close().catch(() => {});
      }
      await jsm.streams.delete(topo.streams.ledger.name).catch(() => {});
      await client.close().catch(() => {});
      await tdb.destroy();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
