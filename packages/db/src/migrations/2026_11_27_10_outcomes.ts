import { sql, type Kysely } from "kysely";

// Observed outcomes (issue 19): one value per (account, request, asset, metric), with a copy of
// what the ranking said about the asset when the outcome was recorded. The copy keeps the
// account's calibration whole after the ranking itself is purged (30 days), and lets one query
// answer GET /api/v1/calibration without reading stored responses.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("outcomes")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("asset_id", "text", (c) => c.notNull())
    .addColumn("metric", "text", (c) => c.notNull())
    .addColumn("value", "double precision", (c) => c.notNull())
    .addColumn("impressions", "bigint")
    .addColumn("goal", "text", (c) => c.notNull())
    .addColumn("score", "double precision", (c) => c.notNull())
    .addColumn("score_before_refine", "double precision", (c) => c.notNull())
    .addColumn("simulated", "boolean", (c) => c.notNull())
    // When the ranking ran: the console plots outcomes against time.
    .addColumn("request_created_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("outcomes_pkey", ["account_id", "request_id", "asset_id", "metric"])
    .execute();
  // Calibration reads one account's outcomes of one metric.
  await db.schema.createIndex("outcomes_account_metric").on("outcomes").columns(["account_id", "metric", "goal"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("outcomes").execute();
}
