import { sql, type Kysely } from "kysely";

// Evaluations kept for reuse (issue 36): every successful scoring evaluation, filed under the
// account that paid for it and the key of what it answered (image content, layer, copy, persona,
// the scorer's method key), so a request with reuse_evaluations gets it again without a model
// call. Rows expire (ADRANK_KEPT_EVALUATIONS_TTL_HOURS) and a gateway sweep deletes them.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("kept_evaluations")
    // The deployment (ADRANK_NAMESPACE) that made it: namespaces sharing a database run other
    // scorers and bill other ledgers, so they never share evaluations.
    .addColumn("namespace", "text", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull())
    // SHA-256 hex of the job's canonical JSON with the method key.
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("method_key", "text", (c) => c.notNull())
    // JSON as text, not jsonb: it is only ever written whole and read whole, never queried
    // inside, and jsonb's parse on every insert was the larger part of what keeping cost
    // PostgreSQL per evaluation.
    .addColumn("evaluation", "text", (c) => c.notNull())
    .addColumn("kept_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("kept_evaluations_pkey", ["namespace", "account_id", "key"])
    .execute();
  // The sweep deletes the oldest expired rows first, a bounded batch at a time.
  await db.schema.createIndex("kept_evaluations_expires").on("kept_evaluations").column("expires_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("kept_evaluations").execute();
}
