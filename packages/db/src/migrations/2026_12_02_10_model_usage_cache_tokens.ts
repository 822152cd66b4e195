import { sql, type Kysely } from "kysely";

// Cached input tokens in the model spend (issue 36): of a settlement's input tokens, those read
// from the provider's prompt cache and those written to it, summed beside the input tokens
// (which count them too). Rows written before carry 0 of each, as the events they summed did
// not report any: the totals stay equal to the stream's.
//
// The spend of one request is read from its settlements in ledger_events (a request settles
// under its own id, or `<id>-r<attempt>` after a takeover): a partial index on the settled
// reservation id finds them without reading the mirror through. text_pattern_ops serves both
// the id itself and the `<id>-r%` prefix whatever the database's collation.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("ledger_model_usage")
    .addColumn("cached_input_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("cache_write_input_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index ledger_events_settled_reservation on ledger_events (stream, (payload->>'reservationId') text_pattern_ops) where type = 'UsageSettled'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists ledger_events_settled_reservation`.execute(db);
  await db.schema.alterTable("ledger_model_usage").dropColumn("cached_input_tokens").dropColumn("cache_write_input_tokens").execute();
}
