import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { Kysely } from "kysely";
import { createDb, type Database } from "@adrank/db";
import { connectToNats, topology } from "@adrank/messaging";
import type { MirrorDeps } from "../mirror/operations.ts";

const openDb = (name: string) =>
  createDb({ connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", max: 2, applicationName: name, queryTimeoutMs: 0 });

/**
 * The database and the name of this namespace's LEDGER stream, for operator commands that
 * read the mirror only (no NATS needed). Resolves with a sentence when the namespace is malformed.
 */
export function openAdminDatabase(name: string): { db: Kysely<Database>; stream: string } | { error: string } {
  let stream;
  try {
    stream = topology(process.env.ADRANK_NAMESPACE ?? "").streams.ledger.name;
  } catch (err) {
    return { error: `ADRANK_NAMESPACE: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { db: openDb(name), stream };
}

/**
 * The stream, the database and the namespace's topology as the ledger's operator commands
 * need them, from the ledger's own environment (NATS_URL, DATABASE_URL, ADRANK_NAMESPACE).
 * Queries may run long (a whole mirror), so there is no query time-out. Resolves with a
 * sentence instead when NATS cannot be reached or the namespace is malformed.
 */
export async function openAdminConnections(name: string): Promise<{ deps: MirrorDeps; close(): Promise<void> } | { error: string }> {
  let topo;
  try {
    topo = topology(process.env.ADRANK_NAMESPACE ?? "");
  } catch (err) {
    return { error: `ADRANK_NAMESPACE: ${err instanceof Error ? err.message : String(err)}` };
  }
  const url = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  let nc;
  try {
    nc = await connectToNats({ url, name, credentials: process.env });
  } catch (err) {
    return { error: `cannot connect to NATS at ${url}: ${err instanceof Error ? err.message : String(err)}` };
  }
  const db = openDb(name);
  return {
    deps: { db, js: jetstream(nc), jsm: await jetstreamManager(nc), topo },
    async close() {
      await nc.close();
      await db.destroy();
    },
  };
}
