import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { settlementsRepository } from "@adrank/db/repositories";
import { openReservationsOlderThan } from "@adrank/ledger-domain";
import { runPeriodically } from "@adrank/runtime";
import type { AccountStore } from "./account-store.ts";
import type { LedgerLogger } from "./logger.ts";

export interface SweeperOptions {
  store: AccountStore;
  db: Kysely<Database>;
  /** The LEDGER stream whose mirror holds the candidates (other namespaces may share the database). */
  stream: string;
  /** True while billing is paused (the stream is not the mirrored one): nothing is expired then. */
  paused?: () => boolean;
  logger: LedgerLogger;
  ttlMs: number;
  intervalMs: number;
  now: () => number;
  /** Candidates read from Postgres per sweep. Default 500. */
  batchLimit?: number;
}

export interface Sweeper {
  /** One pass; resolves with the number of reservations this replica expired. */
  sweepOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Expires reservations left open longer than the TTL, releasing their credits, except those
 * whose settle is waiting in the settlement outbox. Candidates
 * come from this replica's cached accounts and from the projection (accounts no replica has
 * in memory); each goes through the same decide-and-append path as any command, so several
 * replicas sweeping at once expire a reservation once and never one that was just settled.
 */
export function startSweeper({ store, db, stream, paused = () => false, logger, ttlMs, intervalMs, now, batchLimit = 500 }: SweeperOptions): Sweeper {
  async function sweepOnce(): Promise<number> {
    if (paused()) return 0;
    const at = now();
    const due = new Map<string, { accountId: string; reservationId: string }>();
    for (const [accountId, { state }] of store.cached()) {
      for (const r of openReservationsOlderThan(state, at, ttlMs)) due.set(`${accountId}\u0000${r.reservationId}`, { accountId, reservationId: r.reservationId });
    }
    try {
      const rows = await db
        .selectFrom("ledger_reservations")
        .select(["account_id", "reservation_id"])
        .where("stream", "=", stream)
        .where("status", "=", "open")
        .where("reserved_at", "<=", new Date(at - ttlMs))
        .orderBy("reserved_at")
        .limit(batchLimit)
        .execute();
      for (const r of rows) due.set(`${r.account_id}\u0000${r.reservation_id}`, { accountId: r.account_id, reservationId: r.reservation_id });
    } catch (err) {
      logger.warn({ err }, "sweeper could not read the projection: sweeping cached accounts only");
    }
    let list = [...due.values()];
    // A reservation whose settle a gateway is still relaying (the settlement outbox) was used:
    // expiring it would release work that was done as if it had not been. When the outbox
    // cannot be read, nothing is expired this time; the next sweep looks again.
    if (list.length > 0) {
      try {
        const relaying = await settlementsRepository(db).pendingAmong(stream, list.map((d) => d.reservationId));
        list = list.filter((d) => !relaying.has(d.reservationId));
      } catch (err) {
        logger.warn({ err }, "sweeper could not read the settlement outbox: nothing is expired this time");
        return 0;
      }
    }
    let expired = 0;
    // A few at a time: the per-account queues serialize within an account anyway.
    for (let i = 0; i < list.length; i += 16) {
      const results = await Promise.allSettled(list.slice(i, i + 16).map(({ accountId, reservationId }) => store.execute(accountId, { type: "ExpireReservation", reservationId })));
      for (const r of results) {
        if (r.status === "fulfilled" && r.value.ok) expired++;
        // Rejections are expected: another replica, or a settle, closed it first.
        else if (r.status === "rejected") logger.warn({ err: r.reason }, "expiring a reservation failed: next sweep retries");
      }
    }
    if (expired > 0) logger.info({ expired, candidates: list.length, ttlMs }, "expired reservations");
    return expired;
  }

  // A slow sweep is not stacked with another.
  const periodic = runPeriodically(sweepOnce, intervalMs, (err) => logger.error({ err }, "sweep failed"));
  return { sweepOnce, stop: () => periodic.stop() };
}
