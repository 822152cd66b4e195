import { sql, type Kysely } from "kysely";

// Settlements that outlive their request (issue 33). When the ledger has not confirmed a
// settle by the time the answer must go, the gateway writes it here before answering, and the
// ledger applies it (exactly once: a repeated settle of a reservation is answered with the
// first outcome) and records what it charged. The sweeper leaves a reservation with a pending
// row alone, so an unconfirmed charge is never released as if the work had not happened.
// `stream` is the LEDGER stream, as in the mirror: namespaces sharing a database stay apart.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("settlement_outbox")
    .addColumn("stream", "text", (c) => c.notNull())
    .addColumn("reservation_id", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("units_used", "integer", (c) => c.notNull().check(sql`units_used >= 0`))
    .addColumn("model_usage", "jsonb")
    .addColumn("state", "text", (c) => c.notNull().defaultTo("pending").check(sql`state in ('pending', 'applied', 'refused')`))
    .addColumn("credits_used", "integer")
    .addColumn("balance", "integer")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("settled_at", "timestamptz")
    // When the stored answer of its request was brought up to date (the gateway's relay).
    .addColumn("result_updated_at", "timestamptz")
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("settlement_outbox_pkey", ["stream", "reservation_id"])
    .execute();
  // The relay's queue: due settlements, and settled ones whose stored answer still says "pending".
  await sql`create index settlement_outbox_pending on settlement_outbox (stream, next_attempt_at) where state = 'pending'`.execute(db);
  await sql`create index settlement_outbox_unreported on settlement_outbox (stream, settled_at) where state <> 'pending' and result_updated_at is null`.execute(db);
  // A stored answer that said "pending" finds its settlement by request id.
  await sql`create index settlement_outbox_request on settlement_outbox (request_id)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("settlement_outbox").execute();
}
