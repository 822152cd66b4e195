import type { Kysely } from "kysely";

// Counters of the console's sign-up and sign-in limits, shared by every console replica: one
// row per limited key and fixed window, incremented atomically (insert … on conflict … do
// update … returning). Rows are pruned once their window has ended.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("dashboard_limit_counters")
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("window_start", "timestamptz", (c) => c.notNull())
    .addColumn("window_end", "timestamptz", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("dashboard_limit_counters_pkey", ["key", "window_start"])
    .execute();
  await db.schema.createIndex("dashboard_limit_counters_window_end").on("dashboard_limit_counters").column("window_end").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("dashboard_limit_counters").execute();
}
