import { isDeepStrictEqual } from "node:util";
import { AckPolicy, DeliverPolicy, jetstream, type ConsumerMessages, type JetStreamManager, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { sql, type Kysely } from "kysely";
import type { Database } from "@adrank/db";
import type { LedgerEvent, UsageKind, UsageSettled } from "@adrank/ledger-domain";
import type { Topology } from "@adrank/messaging";
import { accountOfSubject, decodeEvent } from "./event-codec.ts";
import type { LedgerLogger } from "./logger.ts";
import { divergedAt } from "./mirror/identity.ts";
import type { StreamGuard } from "./mirror/stream-guard.ts";

const NANOS_PER_MS = 1_000_000;
/**
 * Durable consumer base name; every replica pulls from the same one. (Before the mirror knew
 * its stream's identity it was `ledger-projection`; the new name makes the first start after
 * that upgrade project the whole stream into the new tables.)
 */
export const PROJECTION_CONSUMER = "ledger-mirror";

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
  /** Says whether the stream is the one the mirror follows; the projection pauses while it is not. */
  guard: StreamGuard;
  /** Events applied per transaction at most. Default 500. */
  batchMax?: number;
  /**
   * How long a partial batch waits for more events. A transaction per event would cost the
   * replica more CPU than deciding the commands; a short wait batches them at the price of a
   * little projection lag. Default 25 ms.
   */
  lingerMs?: number;
  /** Pause between looks at a halted mirror or a lost consumer. Default 1 s. */
  retryMs?: number;
}

export interface Projected {
  seq: number;
  accountId: string;
  event: LedgerEvent;
}

/** The mirror is halted (or has no row): nothing may be projected. */
export class MirrorHaltedError extends Error {
  override name = "MirrorHaltedError";
}

/** The stream delivered, under a sequence the mirror holds, an event with other content. */
export class MirrorDivergedError extends Error {
  override name = "MirrorDivergedError";
  readonly seq: number;
  readonly accountId: string;
  constructor(seq: number, accountId: string) {
    super(`event at sequence ${seq} differs from the mirrored one`);
    this.seq = seq;
    this.accountId = accountId;
  }
}

/**
 * Projects the LEDGER stream into Postgres through one durable pull consumer shared by all
 * replicas. Each event is inserted once by (stream, sequence); the totals, reservation and
 * model-usage rows change in the same transaction, and only for rows that were new, so a
 * redelivery changes nothing. A redelivered sequence whose content differs means the stream is
 * not the mirrored one: the batch is rolled back and the mirror halts. Replicas may apply
 * events of one account out of order: the totals are sums and a reservation's closed status
 * wins over open, so the result does not depend on order.
 */
export async function startProjection({ nc, jsm, db, topo, logger, guard, batchMax = 500, lingerMs = 25, retryMs = 1_000 }: ProjectionOptions): Promise<Projection> {
  const stream = topo.streams.ledger.name;
  const durable = topo.consumer(PROJECTION_CONSUMER);
  const accountPrefix = topo.ledgerAccount("x").slice(0, -1);
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

  let stopping = false;
  let messages: ConsumerMessages | null = null;
  let wakeIdle: (() => void) | null = null;
  // A halt seen by the guard ends the session in hand; the loop then waits for an operator.
  guard.onChange((problem) => {
    if (problem) void messages?.close().catch(() => {});
    else wakeIdle?.();
  });
  const idle = () => new Promise<void>((r) => ((wakeIdle = r), setTimeout(r, retryMs).unref()));

  /** Pulls and applies batches until the messages end: stop, a halt, or a lost consumer. */
  async function session(): Promise<void> {
    try {
      await jsm.consumers.add(stream, config);
    } catch (err) {
      if (!(err instanceof Error && /already (exists|in use)/i.test(err.message))) throw err;
    }
    const consumer = await jetstream(nc).consumers.get(stream, durable);
    // nats.js re-issues a pull only after it expires (30 s by default) or two heartbeats are
    // missed; a pull held by a NATS node that died would stall the mirror that long.
    const iter = await consumer.consume({ max_messages: 1_000, expires: 5_000 });
    messages = iter;
    if (stopping || guard.problem()) await iter.close().catch(() => {});
    const buffer: JsMsg[] = [];
    // Resolves the worker's wait when the pump adds messages (an object: closures assign it).
    const signal: { wake: (() => void) | null } = { wake: null };
    let ended = false;
    const pump = (async () => {
      try {
        for await (const m of iter) {
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
    let halted = false;
    while (!(ended && buffer.length === 0) && !halted) {
      if (buffer.length === 0) {
        await new Promise<void>((resolve) => (signal.wake = resolve));
        signal.wake = null;
        continue;
      }
      if (buffer.length < batchMax && lingerMs > 0 && !stopping && !ended) await new Promise((r) => setTimeout(r, lingerMs));
      halted = !(await projectBatch(buffer.splice(0, batchMax)));
    }
    if (halted) await iter.close().catch(() => {});
    await pump;
    messages = null;
  }

  /** Applies one batch and acks it; false when the mirror halted (nothing acked, nothing changed). */
  async function projectBatch(batch: JsMsg[]): Promise<boolean> {
    const rows: Projected[] = [];
    for (const m of batch) {
      try {
        rows.push({ seq: m.seq, accountId: accountOfSubject(m.subject, accountPrefix), event: decodeEvent(m.data) });
      } catch (err) {
        // Only this service writes the stream; an unreadable event is a bug that reconcile will show.
        logger.error({ err, seq: m.seq, subject: m.subject }, "unreadable ledger event: not projected");
        // No reason: nats-server 2.9 ignores a TERM that carries one and redelivers the message.
        m.term();
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await applyEvents(db, stream, rows);
        break;
      } catch (err) {
        if (err instanceof MirrorDivergedError) {
          await guard.halt(divergedAt(stream, err.seq, err.accountId)).catch((e: unknown) => logger.error({ err: e }, "could not record the mirror's halt"));
          return false;
        }
        if (err instanceof MirrorHaltedError) {
          await guard.check().catch(() => {});
          return false;
        }
        if (attempt >= 3 || stopping) {
          logger.error({ err, events: rows.length }, "projection batch failed: redelivering later");
          for (const m of batch) m.nak(2_000);
          return true;
        }
        logger.warn({ err, attempt }, "projection batch failed: retrying");
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
    for (const m of batch) m.ack();
    return true;
  }

  const loop = (async () => {
    while (!stopping) {
      if (guard.problem()) {
        await idle();
        continue;
      }
      try {
        await session();
      } catch (err) {
        // The stream or its consumer is gone, or NATS is away: the guard tells which; look again soon.
        logger.warn({ err, stream }, "projection could not pull from the LEDGER stream: retrying");
      }
      if (!stopping) await idle();
    }
  })();

  return {
    async stop() {
      stopping = true;
      await messages?.close().catch(() => {});
      wakeIdle?.();
      await loop;
    },
    async backlog() {
      const info = await jsm.consumers.info(stream, durable);
      return info.num_pending + info.num_ack_pending;
    },
  };
}

/** One row of ledger_reservations as the projection writes it. */
type ReservationRow = Database["ledger_reservations"];

/** One row of ledger_model_usage as the projection adds it to the totals. */
interface ModelUsageDelta {
  stream: string;
  account_id: string;
  /** UTC day of settlement, `YYYY-MM-DD` (as usage_per_day counts units). */
  day: string;
  model: string;
  kind: UsageKind;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
}

interface AccountDelta {
  stream: string;
  account_id: string;
  granted: number;
  used: number;
  reserved: number;
  last_seq: number;
  event_count: number;
}

/**
 * Applies events of `stream` idempotently in one transaction; returns how many were new.
 * Throws MirrorHaltedError when the mirror of `stream` is halted or missing, and
 * MirrorDivergedError (changing nothing) when a sequence already mirrored arrives with other
 * content.
 */
export async function applyEvents(db: Kysely<Database>, stream: string, rows: Projected[]): Promise<number> {
  if (rows.length === 0) return 0;
  const unique = [...new Map(rows.map((r) => [r.seq, r])).values()];
  return db.transaction().execute(async (trx) => {
    // Locks the mirror's row: batches of all replicas apply one after another, and a halt
    // recorded by another replica is seen here.
    const mirror = await trx.selectFrom("ledger_mirrors").select("status").where("stream", "=", stream).forUpdate().executeTakeFirst();
    if (mirror?.status !== "projecting") throw new MirrorHaltedError(mirror ? `the mirror of ${stream} is halted` : `no mirror is recorded for ${stream}`);
    const inserted = await trx
      .insertInto("ledger_events")
      .values(unique.map((r) => ({ stream, stream_seq: r.seq, account_id: r.accountId, type: r.event.type, payload: JSON.stringify(r.event), at: new Date(r.event.at) })))
      .onConflict((oc) => oc.columns(["stream", "stream_seq"]).doNothing())
      .returning("stream_seq")
      .execute();
    const fresh = new Set(inserted.map((r) => r.stream_seq));
    const repeats = unique.filter((r) => !fresh.has(r.seq));
    if (repeats.length > 0) {
      const held = new Map(
        (await trx.selectFrom("ledger_events").select(["stream_seq", "account_id", "payload"]).where("stream", "=", stream).where("stream_seq", "in", repeats.map((r) => r.seq)).execute()).map((e) => [e.stream_seq, e]),
      );
      for (const r of repeats) {
        const h = held.get(r.seq);
        if (!h || h.account_id !== r.accountId || !isDeepStrictEqual(h.payload, JSON.parse(JSON.stringify(r.event)))) throw new MirrorDivergedError(r.seq, r.accountId);
      }
    }
    const accounts = new Map<string, AccountDelta>();
    const reservations = new Map<string, ReservationRow>();
    const modelUsage = new Map<string, ModelUsageDelta>();
    for (const { seq, accountId, event } of [...unique].sort((a, b) => a.seq - b.seq)) {
      if (!fresh.has(seq)) continue;
      const a = accounts.get(accountId) ?? { stream, account_id: accountId, granted: 0, used: 0, reserved: 0, last_seq: 0, event_count: 0 };
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
            stream,
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
            stream,
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
          if (event.type === "UsageSettled") addModelUsage(modelUsage, stream, accountId, event);
          break;
        }
        default: {
          const unknown: never = event;
          throw new Error(`unknown event ${JSON.stringify(unknown)}`);
        }
      }
    }
    const byKey = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
    if (reservations.size > 0) {
      await trx
        .insertInto("ledger_reservations")
        .values(byKey(reservations))
        .onConflict((oc) =>
          oc.columns(["stream", "account_id", "reservation_id"]).doUpdateSet({
            // Closed is final whatever order the events arrive in.
            status: sql`case when excluded.status <> 'open' then excluded.status else ledger_reservations.status end`,
            units_used: sql`coalesce(excluded.units_used, ledger_reservations.units_used)`,
            closed_at: sql`coalesce(excluded.closed_at, ledger_reservations.closed_at)`,
          }),
        )
        .execute();
    }
    if (modelUsage.size > 0) {
      await trx
        .insertInto("ledger_model_usage")
        .values(byKey(modelUsage))
        .onConflict((oc) =>
          oc.columns(["stream", "account_id", "day", "model", "kind"]).doUpdateSet({
            calls: sql`ledger_model_usage.calls + excluded.calls`,
            input_tokens: sql`ledger_model_usage.input_tokens + excluded.input_tokens`,
            output_tokens: sql`ledger_model_usage.output_tokens + excluded.output_tokens`,
            cached_input_tokens: sql`ledger_model_usage.cached_input_tokens + excluded.cached_input_tokens`,
            cache_write_input_tokens: sql`ledger_model_usage.cache_write_input_tokens + excluded.cache_write_input_tokens`,
          }),
        )
        .execute();
    }
    if (accounts.size > 0) {
      await trx
        .insertInto("ledger_accounts")
        .values(byKey(accounts).map((a) => ({ ...a, updated_at: new Date() })))
        .onConflict((oc) =>
          oc.columns(["stream", "account_id"]).doUpdateSet({
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
    if (fresh.size > 0) {
      await trx
        .updateTable("ledger_mirrors")
        .set({ last_seq: sql<number>`greatest(last_seq, ${Math.max(...fresh)})`, updated_at: sql<Date>`now()` })
        .where("stream", "=", stream)
        .execute();
    }
    return fresh.size;
  });
}

/** Sums a settlement's model usage into the batch's rows, one per account, UTC day, model and kind (absent cache counts as 0). */
function addModelUsage(into: Map<string, ModelUsageDelta>, stream: string, accountId: string, event: UsageSettled): void {
  const day = new Date(event.at).toISOString().slice(0, 10);
  for (const u of event.modelUsage ?? []) {
    const key = [accountId, day, u.model, event.kind].join("\u0000");
    const row = into.get(key) ?? { stream, account_id: accountId, day, model: u.model, kind: event.kind, calls: 0, input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 };
    row.calls += u.calls;
    row.input_tokens += u.inputTokens;
    row.output_tokens += u.outputTokens;
    row.cached_input_tokens += u.cachedInputTokens ?? 0;
    row.cache_write_input_tokens += u.cacheWriteInputTokens ?? 0;
    into.set(key, row);
  }
}

const reservationKey = (accountId: string, reservationId: string) => `${accountId}\u0000${reservationId}`;

function mergeReservation(into: Map<string, ReservationRow>, row: ReservationRow): void {
  const key = reservationKey(row.account_id, row.reservation_id);
  const existing = into.get(key);
  // A close event carries every column, and closed wins over open.
  if (!existing || row.status !== "open") into.set(key, row);
}
