import { sql, type Kysely } from "kysely";

// The drift watch (services/gateway/src/admin/drift): each run ranks one fixed reference batch
// through the public API and is kept here with the answer's receipt, scores and warnings, so
// the next run of the same batch can say whether the models or the ranking moved. Append-only.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("drift_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // sha256 of the batch's request, images included: a changed batch starts a new baseline.
    .addColumn("batch_hash", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    // The answer's summary.method; null when the server sent none.
    .addColumn("receipt", "jsonb")
    // Asset id → { score, rank }.
    .addColumn("scores", "jsonb", (c) => c.notNull())
    .addColumn("warnings", "jsonb", (c) => c.notNull())
    .execute();
  // Each run reads the newest run of its batch.
  await sql`create index drift_runs_batch_newest on drift_runs (batch_hash, created_at desc)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("drift_runs").execute();
}
