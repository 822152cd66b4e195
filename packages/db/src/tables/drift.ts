import type { ColumnType, Generated } from "kysely";

// The drift watch's runs (services/gateway/src/admin/drift): one ranking of a fixed reference
// batch a day, compared with the last one of the same batch. Written and read by that tool,
// which signs in with the gateway's role.

/** A jsonb column: written as JSON text, read back parsed by pg; never updated. */
type Json<Null = never> = ColumnType<unknown, string | Null, never>;

export interface DriftRunsTable {
  id: string;
  created_at: Generated<Date>;
  /** sha256 of the batch's request (images and settings): runs of different batches are not compared. */
  batch_hash: string;
  request_id: string;
  /** The answer's summary.method; null when the server sent none. */
  receipt: Json<null>;
  /** Asset id → { score, rank }. */
  scores: Json;
  /** The answer's summary.warnings. */
  warnings: Json;
}

export interface DriftTables {
  drift_runs: DriftRunsTable;
}
