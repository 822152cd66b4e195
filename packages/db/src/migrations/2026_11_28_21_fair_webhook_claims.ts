import { sql, type Kysely } from "kysely";

// Fair webhook delivery (issue 31): deliveries are claimed per account in turn, the account
// served longest ago first, with a cap on each account's attempts in flight and on its
// pending deliveries. `webhook_account_turns` remembers when each account was last served;
// the indexes keep the claim and the caps' counts to one account's pending rows.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_account_turns")
    .addColumn("account_id", "text", (c) => c.primaryKey())
    .addColumn("served_at", "timestamptz", (c) => c.notNull())
    .execute();
  // The accounts with pending deliveries, and each one's next due delivery.
  await sql`create index webhook_deliveries_pending_account on webhook_deliveries (account_id, next_attempt_at) where state = 'pending'`.execute(db);
  // An account's attempts in flight (a lease is cleared when the attempt is recorded).
  await sql`create index webhook_deliveries_leased on webhook_deliveries (account_id) where state = 'pending' and lease_expires_at is not null`.execute(db);
  // Deliveries still to come: asynchronous requests with a webhook_url that are running.
  await sql`create index api_requests_running_webhooks on api_requests (account_id) where state = 'running' and webhook_url is not null`.execute(db);
  // The global oldest-first claim it served is gone.
  await sql`drop index webhook_deliveries_due`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
  await sql`drop index api_requests_running_webhooks`.execute(db);
  await sql`drop index webhook_deliveries_leased`.execute(db);
  await sql`drop index webhook_deliveries_pending_account`.execute(db);
  await db.schema.dropTable("webhook_account_turns").execute();
}
