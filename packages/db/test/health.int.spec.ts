import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../src/connect.ts";
import { healthRepository } from "../src/repositories/index.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("dbhealth");
});
afterAll(async () => {
  await t?.destroy();
});

describe("health repository", () => {
  it("pings a reachable server and throws for one that cannot be reached", async () => {
    await expect(healthRepository(t.db).ping()).resolves.toBeUndefined();
    const unreachable = createDb({ connectionString: "postgres://postgres@127.0.0.1:1/test", max: 1 });
    try {
      await expect(healthRepository(unreachable).ping()).rejects.toThrow();
    } finally {
      await unreachable.destroy();
    }
  });
});
