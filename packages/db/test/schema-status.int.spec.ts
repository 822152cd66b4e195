import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createDb, quoteIdent } from "../src/connect.ts";
import { createMigrator } from "../src/migrate.ts";
import { migrations } from "../src/migrations/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";
import { assertSchemaCurrent, describeSchemaStatus, migrateToLatest, schemaStatus, SchemaNotCurrentError } from "../src/index.ts";

const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const ALL = Object.keys(migrations).sort();
const LAST = ALL.at(-1)!;

/** The error assertSchemaCurrent rejects with, or a failure when it resolves. */
async function refusal(check: Promise<unknown>): Promise<SchemaNotCurrentError> {
  const err = await check.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SchemaNotCurrentError);
  return err as SchemaNotCurrentError;
}

/** A schema with nothing in it (no migration table either), dropped again by `drop()`. */
async function emptySchema(prefix: string) {
  const schema = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = createDb({ connectionString, max: 1 });
  await sql`create schema ${sql.raw(quoteIdent(schema))}`.execute(admin);
  await admin.destroy();
  const db = createDb({ connectionString, schema, max: 2 });
  return {
    db,
    schema,
    async drop() {
      await db.destroy();
      const cleanup = createDb({ connectionString, max: 1 });
      // Under kysely's migration lock, as createTestDatabase's destroy() does: another test
      // file's migration may be reading every schema's tables right now.
      await cleanup.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(3853314791062309107)`.execute(trx);
        await sql`drop schema if exists ${sql.raw(quoteIdent(schema))} cascade`.execute(trx);
      });
      await cleanup.destroy();
    },
  };
}

describe("schema status against the real PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("status");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("a migrated schema is current, named or taken from the connection's search_path", async () => {
    const expected = { schema: t.schema, applied: ALL, pending: [], unknown: [] };
    expect(await assertSchemaCurrent(t.db, t.schema)).toEqual(expected);
    expect(await assertSchemaCurrent(t.db)).toEqual(expected);
    expect(describeSchemaStatus(expected)).toBe(`database schema is current: ${ALL.length} migrations applied in schema "${t.schema}"`);
  });

  it("an empty schema is behind by every migration, says to run the migrate step, and is current once migrated", async () => {
    const fresh = await emptySchema("behind");
    try {
      // Other schemas of this database hold a migration table: this one still counts as unmigrated.
      expect(await schemaStatus(fresh.db)).toEqual({ schema: fresh.schema, applied: [], pending: ALL, unknown: [] });
      const err = await refusal(assertSchemaCurrent(fresh.db));
      expect(err.kind).toBe("behind");
      expect(err.name).toBe("SchemaNotCurrentError");
      expect(err.message).toBe(
        // The message lists the first 8 names and counts the rest, so a long backlog stays one line.
        `database schema is behind: ${ALL.length} migrations not applied (${ALL.length <= 8 ? ALL.join(", ") : `${ALL.slice(0, 8).join(", ")}, … ${ALL.length - 8} more`}) in schema "${fresh.schema}"; run "npm run migrate" (or the migrate Job / compose service) first`,
      );

      // What migrate-cli does: the schema from the search_path, not any schema with a migration table.
      expect(await migrateToLatest(fresh.db)).toEqual(ALL);
      expect((await assertSchemaCurrent(fresh.db, fresh.schema)).pending).toEqual([]);
      expect(await migrateToLatest(fresh.db)).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });

  it("a schema rolled back by one migration names that one", async () => {
    const { error } = await createMigrator(t.db, t.schema).migrateDown();
    expect(error).toBeUndefined();
    try {
      const err = await refusal(assertSchemaCurrent(t.db));
      expect(err.kind).toBe("behind");
      expect(err.status.pending).toEqual([LAST]);
      expect(err.message).toContain(`database schema is behind: 1 migration not applied (${LAST})`);
      expect(err.message).toContain('run "npm run migrate"');
    } finally {
      expect(await migrateToLatest(t.db, t.schema)).toEqual([LAST]);
    }
  });

  it("a schema migrated by a newer build (a migration this build does not know) is ahead, and says so", async () => {
    const future = "2999_01_01_00_from_a_newer_build";
    await t.db.withSchema(t.schema).insertInto("kysely_migration" as never).values({ name: future, timestamp: new Date().toISOString() } as never).execute();
    try {
      const err = await refusal(assertSchemaCurrent(t.db));
      expect(err.kind).toBe("ahead");
      expect(err.status).toEqual({ schema: t.schema, applied: ALL, pending: [], unknown: [future] });
      expect(err.message).toBe(
        `database schema is ahead of this build: 1 migration applied that this build does not know (${future}) in schema "${t.schema}"; a newer build migrated this database: run that build (or a newer one), not this one`,
      );
    } finally {
      await sql`delete from ${sql.table(`${t.schema}.kysely_migration`)} where name = ${future}`.execute(t.db);
    }
    expect((await assertSchemaCurrent(t.db)).unknown).toEqual([]);
  });

  it("a search_path whose schema does not exist leaves every migration pending, and says the schema is missing", async () => {
    const db = createDb({ connectionString, schema: `missing_${randomBytes(5).toString("hex")}`, max: 1 });
    try {
      const err = await refusal(assertSchemaCurrent(db));
      expect(err.status).toEqual({ schema: null, applied: [], pending: ALL, unknown: [] });
      expect(err.message).toContain("no schema on the connection's search_path exists");
      expect(err.message).toContain('run "npm run migrate"');
    } finally {
      await db.destroy();
    }
  });
});

describe("describeSchemaStatus", () => {
  it("lists at most eight names, and counts the rest", () => {
    const pending = Array.from({ length: 11 }, (_, i) => `2026_01_${String(i + 10)}_m`);
    const line = describeSchemaStatus({ schema: "public", applied: [], pending, unknown: [] });
    expect(line).toContain(`11 migrations not applied (${pending.slice(0, 8).join(", ")}, … 3 more) in schema "public"`);
  });

  it("says both when a database is ahead and also lacks migrations of this build", () => {
    const line = describeSchemaStatus({ schema: "public", applied: ["a"], pending: ["b"], unknown: ["c", "d"] });
    expect(line).toBe(
      'database schema is ahead of this build: 2 migrations applied that this build does not know (c, d) in schema "public", and lacks 1 migration of this build (b); a newer build migrated this database: run that build (or a newer one), not this one',
    );
  });
});
