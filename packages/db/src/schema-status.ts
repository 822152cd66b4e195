// Services never migrate: they check at start that the schema is the one their build expects,
// and stop with a sentence saying what to do when it is not. The migrate step
// (packages/db/src/migrate-cli.ts: `npm run migrate`, the migrate Job, the compose service)
// is the one place that changes the schema.
import { sql, type Kysely } from "kysely";
import { MIGRATION_TABLE, migrationProvider, resolveSchema } from "./migrate.ts";

export interface SchemaStatus {
  /** The schema checked; null when no schema on the connection's search_path exists. */
  schema: string | null;
  /** Migrations of this build already applied, in name order. */
  applied: string[];
  /** Migrations of this build not yet applied, in name order: run the migrate step. */
  pending: string[];
  /** Migrations applied to the database that this build does not know: a newer build migrated it. */
  unknown: string[];
}

/** What the migrate step would do for this build, without doing it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be checked
export async function schemaStatus(db: Kysely<any>, schema?: string): Promise<SchemaStatus> {
  const target = await resolveSchema(db, schema);
  if (!target) {
    // Nothing to read the applied migrations from: every migration of this build is pending.
    const known = Object.keys(await migrationProvider.getMigrations()).sort();
    return { schema: null, applied: [], pending: known, unknown: [] };
  }
  // Read from the migration table of this schema only: kysely's getMigrations first lists the
  // tables of every schema, and fails when another deployment's schema is dropped meanwhile.
  const known = Object.keys(await migrationProvider.getMigrations()).sort();
  const recorded = new Set(await recordedMigrations(db, target));
  const applied = known.filter((name) => recorded.has(name));
  const pending = known.filter((name) => !recorded.has(name));
  const unknown = [...recorded].filter((name) => !known.includes(name)).sort();
  return { schema: target, applied, pending, unknown };
}

/** Thrown when the database schema is not the one this build expects; `message` says what to do. */
export class SchemaNotCurrentError extends Error {
  override readonly name = "SchemaNotCurrentError";
  /** behind: run the migrate step; ahead: a newer build migrated the database. */
  readonly kind: "behind" | "ahead";
  readonly status: SchemaStatus;

  constructor(status: SchemaStatus) {
    super(describeSchemaStatus(status));
    this.kind = status.unknown.length > 0 ? "ahead" : "behind";
    this.status = status;
  }
}

export function isSchemaCurrent(status: SchemaStatus): boolean {
  return status.pending.length === 0 && status.unknown.length === 0;
}

/**
 * Resolves with the status when the schema has exactly this build's migrations; otherwise
 * throws SchemaNotCurrentError. Services call this at start instead of migrating.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be checked
export async function assertSchemaCurrent(db: Kysely<any>, schema?: string): Promise<SchemaStatus> {
  const status = await schemaStatus(db, schema);
  if (!isSchemaCurrent(status)) throw new SchemaNotCurrentError(status);
  return status;
}

/**
 * Why a service must not start on this database, as the one line it logs before it exits:
 * the schema is not this build's, or it could not be read. Null when it may start.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be checked
export async function schemaProblem(db: Kysely<any>): Promise<string | null> {
  try {
    await assertSchemaCurrent(db);
    return null;
  } catch (err) {
    return err instanceof SchemaNotCurrentError ? err.message : `cannot check the database schema: ${err instanceof Error ? err.message : String(err)}`;
  }
}

const RUN_MIGRATE = 'run "npm run migrate" (or the migrate Job / compose service) first';

/** One line for an operator: the schema's state and, when it is not current, what to do. */
export function describeSchemaStatus(status: SchemaStatus): string {
  const where = status.schema ? ` in schema "${status.schema}"` : "";
  if (status.unknown.length > 0) {
    const alsoBehind = status.pending.length > 0 ? `, and lacks ${count(status.pending, "migration")} of this build (${list(status.pending)})` : "";
    return (
      `database schema is ahead of this build: ${count(status.unknown, "migration")} applied that this build does not know (${list(status.unknown)})${where}${alsoBehind}; ` +
      "a newer build migrated this database: run that build (or a newer one), not this one"
    );
  }
  if (status.pending.length > 0) {
    const missing = status.schema ? "" : " (no schema on the connection's search_path exists: create it)";
    return `database schema is behind: ${count(status.pending, "migration")} not applied (${list(status.pending)})${where}${missing}; ${RUN_MIGRATE}`;
  }
  return `database schema is current: ${count(status.applied, "migration")} applied${where}`;
}

function count(names: string[], noun: string): string {
  return `${names.length} ${noun}${names.length === 1 ? "" : "s"}`;
}

const LISTED = 8;
function list(names: string[]): string {
  return names.length <= LISTED ? names.join(", ") : `${names.slice(0, LISTED).join(", ")}, … ${names.length - LISTED} more`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be checked
async function recordedMigrations(db: Kysely<any>, schema: string): Promise<string[]> {
  const { rows: exists } = await sql<{ found: boolean }>`select to_regclass(${`${quoteIdentLoose(schema)}.${MIGRATION_TABLE}`}) is not null as found`.execute(db);
  if (!exists[0]?.found) return [];
  const rows = await db.withSchema(schema).selectFrom(MIGRATION_TABLE).select("name").execute();
  return rows.map((r: { name: string }) => r.name);
}

/** A double-quoted identifier for to_regclass (any schema name, quotes doubled). */
function quoteIdentLoose(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
