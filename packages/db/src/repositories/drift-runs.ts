import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AnswerWarning, MethodReceipt } from "@adrank/contracts";
import type { Database } from "../tables/index.ts";

/** One asset's place in a drift run. */
export interface DriftAssetScore {
  score: number;
  rank: number;
}

/** A run of the drift watch as it is stored: one ranking of the reference batch. */
export interface NewDriftRun {
  batchHash: string;
  requestId: string;
  /** The answer's summary.method; null when the server sent none. */
  receipt: MethodReceipt | null;
  /** By asset id. */
  scores: Record<string, DriftAssetScore>;
  warnings: AnswerWarning[];
}

export interface DriftRunRecord extends NewDriftRun {
  id: string;
  createdAt: Date;
}

const COLUMNS = ["id", "created_at", "batch_hash", "request_id", "receipt", "scores", "warnings"] as const;

interface DriftRunRow {
  id: string;
  created_at: Date;
  batch_hash: string;
  request_id: string;
  receipt: unknown;
  scores: unknown;
  warnings: unknown;
}

// The jsonb columns hold what insert() wrote from an answer the SDK had validated; pg hands
// them back parsed. Read as written, not validated again: a receipt stored by an older server
// version must still be readable after the contract gains a field.
const toRecord = (r: DriftRunRow): DriftRunRecord => ({
  id: r.id,
  createdAt: r.created_at,
  batchHash: r.batch_hash,
  requestId: r.request_id,
  receipt: (r.receipt ?? null) as MethodReceipt | null,
  scores: r.scores as Record<string, DriftAssetScore>,
  warnings: Array.isArray(r.warnings) ? (r.warnings as AnswerWarning[]) : [],
});

/**
 * The drift watch's runs: appended once each, never changed. `latestOfBatch` is what a new
 * run is compared with; `latest` tells a changed batch from a first run.
 */
export function driftRunsRepository(db: Kysely<Database>) {
  const newest = () => db.selectFrom("drift_runs").select(COLUMNS).orderBy("created_at", "desc").orderBy("id", "desc").limit(1);
  return {
    /** Stores a run and returns it with its id and the database's time. */
    async insert(run: NewDriftRun): Promise<DriftRunRecord> {
      const row = await db
        .insertInto("drift_runs")
        .values({
          id: randomUUID(),
          batch_hash: run.batchHash,
          request_id: run.requestId,
          receipt: run.receipt === null ? null : JSON.stringify(run.receipt),
          scores: JSON.stringify(run.scores),
          warnings: JSON.stringify(run.warnings),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    /** The newest run of one batch, or null when it has none. */
    async latestOfBatch(batchHash: string): Promise<DriftRunRecord | null> {
      const row = await newest().where("batch_hash", "=", batchHash).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** The newest run of any batch, or null when none was stored. */
    async latest(): Promise<DriftRunRecord | null> {
      const row = await newest().executeTakeFirst();
      return row ? toRecord(row) : null;
    },
  };
}

export type DriftRunsRepository = ReturnType<typeof driftRunsRepository>;
