import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDb, quoteIdent } from "../src/connect.ts";
import { migrateToLatest } from "../src/migrate.ts";
import { schemaProblem } from "../src/schema-status.ts";

const CONNECTION = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

// Agencies run several deployments (namespaces) on one database, and test files do the same.
// kysely reads the tables of every schema before it takes its lock; a schema dropped during
// that read used to fail a migration (and a service's start-up check) that had nothing to do
// with it. Without the fix this test failed on most runs within its 15 migrations.
describe("migrating and checking a schema next to schemas that come and go", () => {
  it("migrates, and finds the schema current, while other schemas with tables are dropped", async () => {
    const admin = createDb({ connectionString: CONNECTION, max: 2 });
    let churning = true;
    // Another test file (or namespace) finishing: schemas with serial tables created and dropped.
    const churn = (async () => {
      while (churning) {
        const other = quoteIdent(`churn_${randomBytes(4).toString("hex")}`);
        await sql`create schema ${sql.raw(other)}`.execute(admin);
        for (let t = 0; t < 20; t++) await sql`create table ${sql.raw(other)}.${sql.raw(`t${t}`)} (id serial primary key)`.execute(admin);
        await sql`drop schema ${sql.raw(other)} cascade`.execute(admin);
      }
    })();
    const made: string[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const schema = `race_${randomBytes(4).toString("hex")}`;
        made.push(schema);
        await sql`create schema ${sql.raw(quoteIdent(schema))}`.execute(admin);
        const db = createDb({ connectionString: CONNECTION, schema, max: 2 });
        try {
          expect((await migrateToLatest(db, schema)).length).toBeGreaterThan(0);
          // What a service checks at start and in /readyz.
          expect(await schemaProblem(db)).toBeNull();
        } finally {
          await db.destroy();
        }
      }
    } finally {
      churning = false;
      await churn;
      for (const schema of made) await sql`drop schema if exists ${sql.raw(quoteIdent(schema))} cascade`.execute(admin);
      await admin.destroy();
    }
  }, 120_000);
});
