import { sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from "kysely";
import { Migrator, type MigrationProvider, type Migration } from "kysely/migration";
import { migrations } from "./migrations/index.ts";

/** The migrations of this build, as kysely's Migrator reads them (migrate and status alike). */
export const migrationProvider: MigrationProvider = { getMigrations: async (): Promise<Record<string, Migration>> => migrations };

/** kysely's default name of the table that records the applied migrations. */
export const MIGRATION_TABLE = "kysely_migration";

/**
 * The schema to migrate or check: the one given, else the connection's current schema (the
 * first existing one on its search_path). Always naming it matters: without a schema kysely
 * looks for its migration table in *every* schema, so a fresh schema next to a migrated one
 * (test schemas in one database) would be taken as migrated. Null when no schema on the
 * search_path exists.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be migrated
export async function resolveSchema(db: Kysely<any>, schema?: string): Promise<string | null> {
  if (schema) return schema;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? null;
}

/** A Migrator over this build's migrations, recording them in `schema`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be migrated
export function createMigrator(db: Kysely<any>, schema: string): Migrator {
  return new Migrator({ db: lookingOnlyAt(db, schema), provider: migrationProvider, migrationTableSchema: schema });
}

/**
 * `db` as the Migrator uses it, with an introspector that sees `schema` alone. kysely's own
 * reads the tables of every schema (pg_get_serial_sequence per column) to learn whether its
 * two tables exist; a schema dropped by anyone during that read (another namespace removed,
 * a test file finishing) failed our migration, and under steady churn retrying did not help.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be migrated
function lookingOnlyAt(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables(): Promise<TableMetadata[]> {
      const { rows } = await sql<{ name: string; relkind: string }>`
        select c.relname as name, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm')`.execute(db);
      // The Migrator only asks whether its tables exist: names are all it reads.
      return rows.map((r) => ({ name: r.name, schema, isView: r.relkind === "v" || r.relkind === "m", isForeign: false, columns: [] }));
    },
  };
  return new Proxy(db, {
    // Everything else is the real instance's (bound to it: kysely keeps its state in private fields).
    get(target, prop) {
      if (prop === "introspection") return introspection;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Brings the schema up to date. Only the migrate step runs this (`npm run migrate`,
 * packages/db/src/migrate-cli.ts; the migrate Job or compose service): services check the
 * schema with assertSchemaCurrent and never migrate. Still safe to run from several processes
 * at once: kysely takes a Postgres advisory lock around the run.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be migrated
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  const target = await resolveSchema(db, schema);
  if (!target) {
    const { rows } = await sql<{ path: string }>`select current_setting('search_path') as path`.execute(db);
    throw new Error(`database migration failed: no schema on the search_path (${rows[0]?.path ?? "?"}) exists; create it first`);
  }
  let run = await createMigrator(db, target).migrateToLatest();
  // The Migrator reads only our schema's catalog (lookingOnlyAt), but a catalog read can still
  // meet an object dropped under it. Nothing has run then (no results), so reading again is
  // safe; a failing migration of ours comes back with results and is not retried.
  for (let retry = 1; retry <= 8 && isVanishedDuringRead(run); retry++) {
    await new Promise((resolve) => setTimeout(resolve, 50 * retry));
    run = await createMigrator(db, target).migrateToLatest();
  }
  const { error, results } = run;
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ""}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}

/** Postgres "undefined schema, table, column or object", before any migration ran. */
const VANISHED = new Set(["3F000", "42P01", "42703", "42704"]);
function isVanishedDuringRead(run: { error?: unknown; results?: unknown[] }): boolean {
  return run.results === undefined && VANISHED.has(String((run.error as { code?: unknown } | undefined)?.code));
}
