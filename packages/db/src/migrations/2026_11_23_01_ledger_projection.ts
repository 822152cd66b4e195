import { sql, type Kysely } from "kysely";

// The ledger's projection of the LEDGER stream (see services/ledger/src/projection.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ledger_events")
    .addColumn("stream_seq", "bigint", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .addColumn("projected_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("ledger_events_account").on("ledger_events").columns(["account_id", "stream_seq"]).execute();

  await db.schema
    .createTable("ledger_accounts")
    .addColumn("account_id", "text", (c) => c.primaryKey())
    .addColumn("granted", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("used", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("reserved", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("last_seq", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("event_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("ledger_reservations")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("reservation_id", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('scoring', 'pairwise')`))
    .addColumn("units", "integer", (c) => c.notNull())
    .addColumn("units_used", "integer")
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('open', 'settled', 'expired')`))
    .addColumn("reserved_at", "timestamptz", (c) => c.notNull())
    .addColumn("closed_at", "timestamptz")
    .addPrimaryKeyConstraint("ledger_reservations_pk", ["account_id", "reservation_id"])
    .execute();
  // The sweeper looks for open reservations older than the TTL.
  await sql`create index ledger_reservations_open on ledger_reservations (reserved_at) where status = 'open'`.execute(db);
  await db.schema.createIndex("ledger_reservations_usage").on("ledger_reservations").columns(["account_id", "closed_at"]).execute();

  await sql`
    create view account_balances as
    select account_id, granted, used, reserved, granted - used - reserved as available, last_seq, updated_at
    from ledger_accounts`.execute(db);
  await sql`
    create view usage_per_day as
    select account_id, (closed_at at time zone 'UTC')::date as day, kind,
           sum(units_used)::bigint as units_used, count(*)::bigint as reservations
    from ledger_reservations
    where status = 'settled'
    group by account_id, (closed_at at time zone 'UTC')::date, kind`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop view if exists usage_per_day`.execute(db);
  await sql`drop view if exists account_balances`.execute(db);
  await db.schema.dropTable("ledger_reservations").execute();
  await db.schema.dropTable("ledger_accounts").execute();
  await db.schema.dropTable("ledger_events").execute();
}
