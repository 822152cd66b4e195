import { AckPolicy, DeliverPolicy, jetstream, type JetStreamManager, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { sql, type Kysely } from "kysely";
import type { Database } from "@adrank/db";
import type { LedgerEvent } from "@adrank/ledger-domain";
import type { Topology } from "@adrank/messaging";
import { accountOfSubject, decodeEvent } from "./event-codec.ts";
import type { LedgerLogger } from "./logger.ts";

const NANOS_PER_MS = 1_000_000;
/** Durable consumer base name; every replica pulls from the same one. */
export const PROJECTION_CONSUMER = "ledger-projection";

export interface Projection {
  /** Stops pulling and resolves after the batch in hand is committed and acked. */
  stop(): Promise<void>;
  /** Messages not yet delivered plus delivered but not yet acked. */
  backlog(): Promise<number>;
}

export interface ProjectionOptions {
  nc: NatsConnection;
  jsm: JetStreamManager;
  db: Kysely<Database>;
  topo: Topology;
  logger: LedgerLogger;
  /** Events applied per transaction at most. Default 500. */
  batchMax?: number;
  /**
   * How long a partial batch waits for more events. A transaction per event would cost the
   * replica more CPU than deciding the commands; a short wait batches them at the price of a
   * little projection lag. Default 25 ms.
   */
  lingerMs?: number;
}

interface Projected {
  seq: number;
  accountId: string;
  event: LedgerEvent;
}

/**
 * Projects the LEDGER stream into Postgres through one durable pull consumer shared by all
 * replicas. Each event is inserted once by stream sequence; the totals and reservation rows
 * change in the same transaction, and only for rows that were new, so a redelivery changes
 * nothing. Replicas may apply events of one account out of order: the totals are sums and
 * a reservation's closed status wins over open, so the result does not depend on order.
 */
export async function startProjection({ nc, jsm, db, topo, logger, batchMax = 500, lingerMs = 25 }: ProjectionOptions): Promise<Projection> {
  const stream = topo.streams.ledger.name;
  const durable = topo.consumer(PROJECTION_CONSUMER);
  const config = {
    durable_name: durable,
    filter_subject: topo.ledgerAccountWildcard,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    // A batch commits in milliseconds; a replica that died holding one gives it up soon.
    ack_wait: 10_000 * NANOS_PER_MS,
    // Never give up on an event: the projection would be wrong for good.
    max_deliver: -1,
    max_ack_pending: 5_000,
  };
  try {
    await jsm.consumers.add(stream, config);
  } catch (err) {
    if (!(err instanceof Error && /already (exists|in use)/i.test(err.message))) throw err;
  }
  const consumer = await jetstream(nc).consumers.get(stream, durable);
  const accountPrefix = topo.ledgerAccount("x").slice(0, -1);

  const messages = await consumer.consume({ max_messages: 1_000 });
  const buffer: JsMsg[] = [];
  // Resolves the worker's wait when the pump adds messages (an object: closures assign it).
  const signal: { wake: (() => void) | null } = { wake: null };
  let ended = false;
  const pump = (async () => {
    try {
      for await (const m of messages) {
        buffer.push(m);
        signal.wake?.();
      }
    } catch (err) {
      logger.error({ err }, "projection consumer failed");
    } finally {
      ended = true;
      signal.wake?.();
    }
  })();

  let stopping = false;
  const work = (async () => {
    while (!(ended && buffer.length === 0) && !(stopping && buffer.length === 0)) {
      if (buffer.length === 0) {
        await new Promise<void>((resolve) => (signal.wake = resolve));
        signal.wake = null;
        continue;
      }
      if (buffer.length < batchMax && lingerMs > 0 && !stopping && !ended) await new Promise((r) => setTimeout(r, lingerMs));
      const batch = buffer.splice(0, batchMax);
      await projectBatch(batch);
    }
  })();

  async function projectBatch(batch: JsMsg[]): Promise<void> {
    const rows: Projected[] = [];
    for (const m of batch) {
      try {
        rows.push({ seq: m.seq, accountId: accountOfSubject(m.subject, accountPrefix), event: decodeEvent(m.data) });
      } catch (err) {
        // Only this service writes the stream; an unreadable event is a bug that reconcile will show.
        logger.error({ err, seq: m.seq, subject: m.subject }, "unreadable ledger event: not projected");
        m.term("unreadable ledger event");
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await applyEvents(db, rows);
        break;
      } catch (err) {
        if (attempt >= 3 || stopping) {
          logger.error({ err, events: rows.length }, "projection batch failed: redelivering later");
          for (const m of batch) m.nak(2_000);
          return;
        }
        logger.warn({ err, attempt }, "projection batch failed: retrying");
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
    for (const m of batch) m.ack();
  }

  return {
    async stop() {
      stopping = true;
      await messages.close().catch(() => {});
      signal.wake?.();
      await pump;
      await work;
    },
    async backlog() {
      const info = await jsm.consumers.info(stream, durable);
      return info.num_pending + info.num_ack_pending;
    },
  };
}

/** One row of ledger_reservations as the projection writes it. */
type ReservationRow = Database["ledger_reservations"];

interface AccountDelta {
  account_id: string;
  granted: number;
  used: number;
  reserved: number;
  last_seq: number;
  event_count: number;
}

/** Applies events idempotently in one transaction; returns how many were new. */
export async function applyEvents(db: Kysely<Database>, rows: Projected[]): Promise<number> {
  if (rows.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("ledger_events")
      .values(rows.map((r) => ({ stream_seq: r.seq, account_id: r.accountId, type: r.event.type, payload: JSON.stringify(r.event), at: new Date(r.event.at) })))
      .onConflict((oc) => oc.column("stream_seq").doNothing())
      .returning("stream_seq")
      .execute();
    const fresh = new Set(inserted.map((r) => r.stream_seq));
    const accounts = new Map<string, AccountDelta>();
    const reservations = new Map<string, ReservationRow>();
    for (const { seq, accountId, event } of [...rows].sort((a, b) => a.seq - b.seq)) {
      if (!fresh.has(seq)) continue;
      const a = accounts.get(accountId) ?? { account_id: accountId, granted: 0, used: 0, reserved: 0, last_seq: 0, event_count: 0 };
      accounts.set(accountId, a);
      a.last_seq = Math.max(a.last_seq, seq);
      a.event_count++;
      switch (event.type) {
        case "CreditsGranted":
          a.granted += event.credits;
          break;
        case "UsageReserved":
          a.reserved += event.units;
          mergeReservation(reservations, {
            account_id: accountId,
            reservation_id: event.reservationId,
            key_id: event.keyId,
            kind: event.kind,
            units: event.units,
            units_used: null,
            status: "open",
            reserved_at: new Date(event.at),
            closed_at: null,
          });
          break;
        case "UsageSettled":
        case "ReservationExpired": {
          const unitsUsed = event.type === "UsageSettled" ? event.unitsUsed : 0;
          a.reserved -= event.unitsReserved;
          a.used += unitsUsed;
          mergeReservation(reservations, {
            account_id: accountId,
            reservation_id: event.reservationId,
            key_id: event.keyId,
            kind: event.kind,
            units: event.unitsReserved,
            units_used: unitsUsed,
            status: event.type === "UsageSettled" ? "settled" : "expired",
            reserved_at: new Date(event.reservedAt),
            closed_at: new Date(event.at),
          });
          break;
        }
        default: {
          const unknown: never = event;
          throw new Error(`unknown event ${JSON.stringify(unknown)}`);
        }
      }
    }
    // Rows in key order: concurrent replicas lock them in the same order and cannot deadlock.
    const byKey = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
    if (reservations.size > 0) {
      await trx
        .insertInto("ledger_reservations")
        .values(byKey(reservations))
        .onConflict((oc) =>
          oc.columns(["account_id", "reservation_id"]).doUpdateSet({
            // Closed is final whatever order the events arrive in.
            status: sql`case when excluded.status <> 'open' then excluded.status else ledger_reservations.status end`,
            units_used: sql`coalesce(excluded.units_used, ledger_reservations.units_used)`,
            closed_at: sql`coalesce(excluded.closed_at, ledger_reservations.closed_at)`,
          }),
        )
        .execute();
    }
    if (accounts.size > 0) {
      await trx
        .insertInto("ledger_accounts")
        .values(byKey(accounts).map((a) => ({ ...a, updated_at: new Date() })))
        .onConflict((oc) =>
          oc.column("account_id").doUpdateSet({
            granted: sql`ledger_accounts.granted + excluded.granted`,
            used: sql`ledger_accounts.used + excluded.used`,
            reserved: sql`ledger_accounts.reserved + excluded.reserved`,
            last_seq: sql`greatest(ledger_accounts.last_seq, excluded.last_seq)`,
            event_count: sql`ledger_accounts.event_count + excluded.event_count`,
            updated_at: sql`now()`,
          }),
        )
        .execute();
    }
    return fresh.size;
  });
}

const reservationKey = (accountId: string, reservationId: string) => `${accountId}\u0000${reservationId}`;

function mergeReservation(into: Map<string, ReservationRow>, row: ReservationRow): void {
  const key = reservationKey(row.account_id, row.reservation_id);
  const existing = into.get(key);
  // A close event carries every column, and closed wins over open.
  if (!existing || row.status !== "open") into.set(key, row);
}
