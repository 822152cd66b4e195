// Runs the migrations once, e.g. as a start-up job: `node packages/db/src/migrate-cli.ts`.
import { createDb } from "./connect.ts";
import { migrateToLatest } from "./migrate.ts";

const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const db = createDb({ connectionString, max: 1, applicationName: "adrank-migrate", queryTimeoutMs: 0 });
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database schema is up to date");
} catch (err) {
  console.error(err instanceof Error ? `${err.message}${err.cause ? `: ${String(err.cause)}` : ""}` : err);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
