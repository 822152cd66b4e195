import { sql, type Kysely } from "kysely";

// Durable requests (issue 18): every finished rank and pairwise response, fetchable again for
// at least 30 days; Idempotency-Keys per account for 24 h; asynchronous requests with a lease
// so another gateway takes over when the owner dies; images stored once by content hash; and
// webhook secrets, deliveries and their attempts.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_requests")
    .addColumn("request_id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    // The deployment (ADRANK_NAMESPACE) that runs it: only its own gateways may take it over,
    // since another namespace's ledger and workers are not this request's.
    .addColumn("namespace", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("operation", "text", (c) => c.notNull().check(sql`operation in ('rank', 'pairwise')`))
    .addColumn("mode", "text", (c) => c.notNull().check(sql`mode in ('sync', 'async')`))
    .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('running', 'succeeded', 'failed')`))
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("request_body", "text")
    .addColumn("webhook_url", "text")
    .addColumn("reservation_id", "text")
    .addColumn("reserved_at", "timestamptz")
    .addColumn("attempt", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("lease_owner", "text")
    .addColumn("lease_expires_at", "timestamptz")
    .addColumn("progress_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("progress_total", "integer", (c) => c.notNull())
    .addColumn("accepted_body", "text")
    .addColumn("result_status", "integer")
    .addColumn("result_headers", "jsonb")
    .addColumn("result_body", "text")
    .addColumn("error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  await db.schema.createIndex("api_requests_account_created").on("api_requests").columns(["account_id", "created_at desc"]).execute();
  await db.schema.createIndex("api_requests_finished").on("api_requests").column("finished_at").execute();
  // The takeover sweep looks only at running asynchronous requests.
  await sql`create index api_requests_running_async on api_requests (namespace, lease_expires_at) where state = 'running' and mode = 'async'`.execute(db);

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("idempotency_keys_pkey", ["account_id", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_created").on("idempotency_keys").column("created_at").execute();

  await db.schema
    .createTable("stored_images")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("api_request_images")
    .addColumn("request_id", "text", (c) => c.notNull().references("api_requests.request_id").onDelete("cascade"))
    .addColumn("image_name", "text", (c) => c.notNull().references("stored_images.name"))
    .addPrimaryKeyConstraint("api_request_images_pkey", ["request_id", "image_name"])
    .execute();
  await db.schema.createIndex("api_request_images_image").on("api_request_images").column("image_name").execute();

  await db.schema
    .createTable("webhook_secrets")
    .addColumn("account_id", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_valid_until", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("rotated_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("request_id", "text", (c) => c.notNull().unique().references("api_requests.request_id").onDelete("cascade"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('pending', 'delivered', 'failed')`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull())
    .addColumn("lease_expires_at", "timestamptz")
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("delivered_at", "timestamptz")
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
  await db.schema.createIndex("webhook_deliveries_account_created").on("webhook_deliveries").columns(["account_id", "created_at desc"]).execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("delivery_id", "text", (c) => c.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("attempted_at", "timestamptz", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("webhook_attempts_pkey", ["delivery_id", "attempt"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["webhook_attempts", "webhook_deliveries", "webhook_secrets", "api_request_images", "stored_images", "idempotency_keys", "api_requests"]) {
    await db.schema.dropTable(table).execute();
  }
}
