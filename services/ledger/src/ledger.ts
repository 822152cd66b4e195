import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { ACCOUNT_RATE_LIMITS, type AccountRateLimits, type AccountRequestLimits, type UsageSettled } from "@adrank/ledger-domain";
import { ensureStream, retryWhileElecting, type Topology } from "@adrank/messaging";
import { createAccountStore, type AccountStore } from "./account-store.ts";
import { createEventLog } from "./event-log.ts";
import { startRpcHandlers } from "./handlers.ts";
import type { LedgerLogger } from "./logger.ts";
import { startStreamGuard, type StreamGuard } from "./mirror/stream-guard.ts";
import { startProjection, type Projection } from "./projection.ts";
import { startSweeper, type Sweeper } from "./sweeper.ts";

export interface LedgerDeps {
  nc: NatsConnection;
  db: Kysely<Database>;
  topo: Topology;
  logger: LedgerLogger;
  /** Default 5 minutes. */
  reservationTtlMs?: number;
  sweepIntervalMs?: number;
  /** LEDGER stream replicas when this call creates the stream. Default 1. */
  streamReplicas?: number;
  cacheSize?: number;
  appendAttempts?: number;
  /** The account window's limits per kind (all keys together). Default ACCOUNT_RATE_LIMITS. */
  accountRateLimits?: AccountRateLimits;
  /** The account's request and fetch windows' limits. Default ACCOUNT_REQUEST_LIMITS. */
  accountRequestLimits?: AccountRequestLimits;
  /** Run the Postgres projection in this replica (default true). */
  projection?: boolean;
  /** Run the expiry sweeper in this replica (default true). */
  sweeper?: boolean;
  /** Answer the RPC subjects (default true); off for a replica dedicated to the projection. */
  rpc?: boolean;
  /** How often the stream's identity is compared with the mirror's. Default 2 s. */
  guardIntervalMs?: number;
  /** Told of every settlement this replica decides (model spend metrics). */
  onSettled?: (event: UsageSettled) => void;
  now?: () => number;
}

export interface Ledger {
  store: AccountStore;
  projection: Projection | null;
  sweeper: Sweeper | null;
  guard: StreamGuard;
  /**
   * Why this replica pauses billing and projection (the LEDGER stream is not the one the
   * Postgres mirror follows), or null. Readiness reports it.
   */
  problem(): string | null;
  /** Stops taking requests, finishes the commands in hand, stops the sweeper and the projection. Leaves nc and db open. */
  stop(): Promise<void>;
}

/**
 * Starts one ledger replica on an open NATS connection and database: ensures the LEDGER
 * stream, answers the RPC subjects, projects into Postgres and expires stale reservations.
 * Migrations are the caller's (main runs them; tests use a migrated test schema).
 */
export async function startLedger(deps: LedgerDeps): Promise<Ledger> {
  const { nc, db, topo, logger } = deps;
  const now = deps.now ?? Date.now;
  const jsm = await jetstreamManager(nc);
  await ensureStream(jsm, topo.streams.ledger, deps.streamReplicas ?? 1);
  const log = createEventLog(jetstream(nc), jsm, topo.streams.ledger.name);
  const accountRateLimits = deps.accountRateLimits ?? ACCOUNT_RATE_LIMITS;
  const store = createAccountStore({ log, topo, cacheSize: deps.cacheSize ?? 10_000, maxAttempts: deps.appendAttempts ?? 10, now, accountRateLimits, accountRequestLimits: deps.accountRequestLimits });
  // Before any command: a stream that is not the mirrored one must not take a single event.
  const guard = startStreamGuard({ db, jsm, stream: topo.streams.ledger.name, logger, ...(deps.guardIntervalMs ? { intervalMs: deps.guardIntervalMs } : {}) });
  // In a cluster the stream answers nothing while it elects a leader: wait for it, as for the stream itself.
  await retryWhileElecting(() => guard.check());
  // Cached states belong to the stream they were folded from; after a halt the operator may
  // have rebuilt or re-seeded it.
  guard.onChange(() => store.forget());
  const projection = deps.projection === false ? null : await startProjection({ nc, jsm, db, topo, logger, guard });
  const sweeper =
    deps.sweeper === false
      ? null
      : startSweeper({ store, db, stream: topo.streams.ledger.name, paused: () => guard.problem() !== null, logger, ttlMs: deps.reservationTtlMs ?? 300_000, intervalMs: deps.sweepIntervalMs ?? 5_000, now });
  const rpc = deps.rpc === false ? null : startRpcHandlers(nc, topo, store, logger, guard, accountRateLimits, deps.onSettled);
  // The subscriptions must have reached the server before we call ourselves started: a
  // request sent right after (a test, a readiness probe) would otherwise find no responders.
  if (rpc) await nc.flush();
  logger.info(
    { namespace: topo.namespace, stream: topo.streams.ledger.name, queue: topo.ledgerQueue, rpc: rpc !== null, projection: projection !== null, sweeper: sweeper !== null, problem: guard.problem() },
    "ledger started",
  );

  let stopping: Promise<void> | null = null;
  return {
    store,
    projection,
    sweeper,
    guard,
    problem: () => guard.problem(),
    stop() {
      stopping ??= (async () => {
        await rpc?.stop();
        await sweeper?.stop();
        await store.idle();
        await projection?.stop();
        guard.stop();
        logger.info({}, "ledger stopped");
      })();
      return stopping;
    },
  };
}
