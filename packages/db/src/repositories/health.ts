import { sql, type Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

/** What a readiness probe asks of PostgreSQL. */
export function healthRepository(db: Kysely<Database>) {
  return {
    /** One round trip (`select 1`); throws when the server cannot be reached or does not answer in time. */
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
  };
}
export type HealthRepository = ReturnType<typeof healthRepository>;
