import type { Kysely } from "kysely";
import { Migrator, type MigrationProvider, type Migration } from "kysely/migration";
import { migrations } from "./migrations/index.ts";

const provider: MigrationProvider = { getMigrations: async (): Promise<Record<string, Migration>> => migrations };

/**
 * Brings the schema up to date. Safe to run from several processes at once: kysely takes a
 * Postgres advisory lock around the run.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be migrated
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ""}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
