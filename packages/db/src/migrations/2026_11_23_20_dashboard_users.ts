import { sql, type Kysely } from "kysely";

// The account console: people who sign in, their sessions, and the console's own API key per
// account for the playground (stored encrypted: the console must call the gateway with it).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("dashboard_users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("dashboard_sessions")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("dashboard_users.id").onDelete("cascade"))
    .addColumn("csrf_token", "text", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("dashboard_sessions_expiry").on("dashboard_sessions").column("expires_at").execute();

  await db.schema
    .createTable("dashboard_playground_keys")
    .addColumn("account_id", "text", (c) => c.primaryKey().references("accounts.id").onDelete("cascade"))
    .addColumn("key_id", "text", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("encrypted_key", "text", (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("dashboard_playground_keys").execute();
  await db.schema.dropTable("dashboard_sessions").execute();
  await db.schema.dropTable("dashboard_users").execute();
}
