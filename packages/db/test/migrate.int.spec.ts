import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";
import { migrateToLatest } from "../src/index.ts";

describe("migrations against the real PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("dbtest");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("is idempotent: a second run applies nothing", async () => {
    expect(await migrateToLatest(t.db, t.schema)).toEqual([]);
  });

  it("keeps every table in the test's own schema", async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
    expect(rows[0]?.schema).toBe(t.schema);
  });
});
