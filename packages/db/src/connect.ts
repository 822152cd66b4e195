import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "./tables/index.ts";

// int8 (bigint) columns hold stream sequences and credit sums that fit in a double for any
// realistic account; parse them as numbers rather than strings.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface DbOptions {
  connectionString: string;
  /** Postgres schema to use (tests give each run its own). Default: public. */
  schema?: string;
  max?: number;
  applicationName?: string;
  /**
   * How long one query may wait for the server's answer before it fails (pg's
   * query_timeout). A server that accepts bytes but never answers (a partition, a hung
   * host) would otherwise hold a request past its limit. Default 5000; 0 for none
   * (migrations, which may legitimately run long).
   */
  queryTimeoutMs?: number;
}

export function createDb({ connectionString, schema, max = 10, applicationName = "adrank", queryTimeoutMs = 5_000 }: DbOptions): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: applicationName,
    connectionTimeoutMillis: 5_000,
    ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
    // Without search_path, a schema given for a test would be ignored by every unqualified query.
    ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
  });
  // A dropped connection (Postgres restart) must not crash the process; the next query reconnects.
  // The pool only listens for errors on idle clients: a client checked out (inside a
  // transaction, between two queries) emits on itself, and an unheard 'error' event kills
  // the process. The query in flight still fails, and pg-pool drops the broken client when it
  // is released. Found by test/faults/postgres-outage: the ledger died mid-projection.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a safe schema name: ${name}`);
  return `"${name}"`;
}
