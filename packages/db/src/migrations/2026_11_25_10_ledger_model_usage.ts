import { sql, type Kysely } from "kysely";

// Model spend per account: the calls and tokens that settled requests report per model
// (UsageSettled.modelUsage), summed per UTC day of settlement and usage kind. Written by the
// ledger's projection in the transaction that inserts the event, so it is exact under
// redelivery and replay like the other totals. Events from before this migration carry no
// model usage: the table starts empty and complete.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ledger_model_usage")
    .addColumn("stream", "text", (c) => c.notNull().references("ledger_mirrors.stream"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("day", "date", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('scoring', 'pairwise')`))
    .addColumn("calls", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("input_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("output_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("ledger_model_usage_pk", ["stream", "account_id", "day", "model", "kind"])
    .execute();
  // Every account over a range of days (the primary key serves one account's range).
  await db.schema.createIndex("ledger_model_usage_day").on("ledger_model_usage").columns(["stream", "day"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ledger_model_usage").execute();
}
