import { randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { createDb, quoteIdent } from "./connect.ts";
import { migrateToLatest } from "./migrate.ts";
import type { Database } from "./tables/index.ts";

/** The advisory lock id kysely's Postgres adapter takes around a migration run. */
const KYSELY_MIGRATION_LOCK_ID = "3853314791062309107";

export interface TestDatabase {
  db: Kysely<Database>;
  schema: string;
  connectionString: string;
  /** Drops the schema and closes the pool. */
  destroy(): Promise<void>;
}

/**
 * A migrated, private Postgres schema for one test file, so test files can run at the same
 * time against one database. Uses DATABASE_URL (default: the local test database).
 */
export async function createTestDatabase(prefix = "t"): Promise<TestDatabase> {
  const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const schema = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = createDb({ connectionString, max: 1 });
  await sql`create schema ${sql.raw(quoteIdent(schema))}`.execute(admin);
  await admin.destroy();
  const db = createDb({ connectionString, schema, max: 5 });
  await migrateToLatest(db, schema);
  return {
    db,
    schema,
    connectionString,
    async destroy() {
      await db.destroy();
      const cleanup = createDb({ connectionString, max: 1 });
      // kysely's migrator reads the table list of every schema while holding this advisory
      // lock; dropping a schema under the same lock keeps a concurrent migration (another test
      // file, or a service process starting) from failing on a schema that vanished mid-read.
      await cleanup.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${sql.raw(KYSELY_MIGRATION_LOCK_ID)})`.execute(trx);
        await sql`drop schema if exists ${sql.raw(quoteIdent(schema))} cascade`.execute(trx);
      });
      await cleanup.destroy();
    },
  };
}
