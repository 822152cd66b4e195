import { sql, type Kysely } from "kysely";

// The ledger mirror learns which stream it mirrors. Before this, events were keyed by stream
// sequence alone, so a second namespace on the same database (or a LEDGER stream recreated
// after NATS lost its data) overlapped the first one's sequences and was silently dropped.
// Now every row carries the stream's name, and `ledger_mirrors` records the identity
// (name and creation time) of the stream each mirror follows.
//
// The earlier tables cannot say which stream their rows came from. Their events are kept as
// `ledger_events_v1` (nothing is thrown away); the totals and reservations are derived data
// and are dropped. The projection rebuilds the new tables from the stream on its first start
// (docs/ledger-mirror.md, "Upgrading").

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop view if exists usage_per_day`.execute(db);
  await sql`drop view if exists account_balances`.execute(db);
  await db.schema.dropTable("ledger_reservations").execute();
  await db.schema.dropTable("ledger_accounts").execute();
  await sql`alter index ledger_events_account rename to ledger_events_v1_account`.execute(db);
  await sql`alter table ledger_events rename constraint ledger_events_pkey to ledger_events_v1_pkey`.execute(db);
  await sql`alter table ledger_events rename to ledger_events_v1`.execute(db);

  await db.schema
    .createTable("ledger_mirrors")
    .addColumn("stream", "text", (c) => c.primaryKey())
    .addColumn("stream_created", "timestamptz", (c) => c.notNull())
    .addColumn("last_seq", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('projecting', 'halted')`))
    .addColumn("problem", "text")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("ledger_events")
    .addColumn("stream", "text", (c) => c.notNull().references("ledger_mirrors.stream"))
    .addColumn("stream_seq", "bigint", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .addColumn("projected_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("ledger_events_pk", ["stream", "stream_seq"])
    .execute();
  await db.schema.createIndex("ledger_events_account").on("ledger_events").columns(["stream", "account_id", "stream_seq"]).execute();

  await db.schema
    .createTable("ledger_accounts")
    .addColumn("stream", "text", (c) => c.notNull().references("ledger_mirrors.stream"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("granted", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("used", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("reserved", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("last_seq", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("event_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("ledger_accounts_pk", ["stream", "account_id"])
    .execute();

  await db.schema
    .createTable("ledger_reservations")
    .addColumn("stream", "text", (c) => c.notNull().references("ledger_mirrors.stream"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("reservation_id", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('scoring', 'pairwise')`))
    .addColumn("units", "integer", (c) => c.notNull())
    .addColumn("units_used", "integer")
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('open', 'settled', 'expired')`))
    .addColumn("reserved_at", "timestamptz", (c) => c.notNull())
    .addColumn("closed_at", "timestamptz")
    .addPrimaryKeyConstraint("ledger_reservations_pk", ["stream", "account_id", "reservation_id"])
    .execute();
  // The sweeper looks for open reservations older than the TTL.
  await sql`create index ledger_reservations_open on ledger_reservations (stream, reserved_at) where status = 'open'`.execute(db);
  await db.schema.createIndex("ledger_reservations_usage").on("ledger_reservations").columns(["stream", "account_id", "closed_at"]).execute();

  // Events an operator command took out of the mirror (rebuild) or out of a stream (reseed
  // --discard-stream-events): kept, never deleted by the system.
  await db.schema
    .createTable("ledger_events_archive")
    .addColumn("archived_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("stream", "text", (c) => c.notNull())
    .addColumn("stream_created", "timestamptz")
    .addColumn("stream_seq", "bigint", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .execute();

  await sql`
    create view account_balances as
    select stream, account_id, granted, used, reserved, granted - used - reserved as available, last_seq, updated_at
    from ledger_accounts`.execute(db);
  await sql`
    create view usage_per_day as
    select stream, account_id, (closed_at at time zone 'UTC')::date as day, kind,
           sum(units_used)::bigint as units_used, count(*)::bigint as reservations
    from ledger_reservations
    where status = 'settled'
    group by stream, account_id, (closed_at at time zone 'UTC')::date, kind`.execute(db);
}

// No `down`: the v1 layout could not say which stream its rows came from, so there is nothing
// correct to go back to. `ledger_events_v1` still holds the old rows.
