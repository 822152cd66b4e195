import { sql, type Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

/** One observed outcome of one ranked asset, with the copy of what its ranking said about it. */
export interface OutcomeRecord {
  requestId: string;
  assetId: string;
  metric: string;
  value: number;
  impressions: number | null;
  goal: string;
  score: number;
  scoreBeforeRefine: number;
  simulated: boolean;
  requestCreatedAt: Date;
  /** When the value was last written (updated_at): an unchanged repeat does not move it. */
  recordedAt: Date;
}

export type NewOutcome = Omit<OutcomeRecord, "recordedAt">;
export type OutcomeChange = "created" | "updated" | "unchanged";
export type RecordedOutcomeRecord = OutcomeRecord & { change: OutcomeChange };

/** A stored request as outcomes need it: what it was, whether it ended well, and its answer's text. */
export interface StoredRequestResult {
  requestId: string;
  operation: "rank" | "pairwise";
  state: "running" | "succeeded" | "failed";
  createdAt: Date;
  /** The response as JSON text, each long data URI replaced by a stored-image token (not restored); null while running. */
  resultBody: string | null;
}

const COLUMNS = ["request_id", "asset_id", "metric", "value", "impressions", "goal", "score", "score_before_refine", "simulated", "request_created_at", "updated_at"] as const;

interface OutcomeRow {
  request_id: string;
  asset_id: string;
  metric: string;
  value: number;
  impressions: string | null;
  goal: string;
  score: number;
  score_before_refine: number;
  simulated: boolean;
  request_created_at: Date;
  updated_at: Date;
}

const toRecord = (r: OutcomeRow): OutcomeRecord => ({
  requestId: r.request_id,
  assetId: r.asset_id,
  metric: r.metric,
  value: r.value,
  impressions: r.impressions === null ? null : Number(r.impressions),
  goal: r.goal,
  score: r.score,
  scoreBeforeRefine: r.score_before_refine,
  simulated: r.simulated,
  requestCreatedAt: r.request_created_at,
  recordedAt: r.updated_at,
});

/**
 * A stored text marks each cut-out image with a raw U+0001 on both sides (request-records),
 * which JSON does not allow inside a string. Escaped, the text parses, and the token stands in
 * the string where the image was: scores can be read without loading any image.
 */
const parseableJson = (template: string) => template.replaceAll("\u0001", "\\u0001");

const keyOf = (o: { requestId: string; assetId: string; metric: string }) => JSON.stringify([o.requestId, o.assetId, o.metric]);

/**
 * Observed outcomes, always read and written through their owner: another account's rows
 * and requests do not exist here. One value per (account, request, asset, metric).
 */
export function outcomesRepository(db: Kysely<Database>) {
  return {
    /**
     * Upserts a batch in one transaction and says, in input order, what each item did: a new
     * key is "created", a different value or impressions "updated", the same ones "unchanged"
     * (its recordedAt stays). Keys must be distinct within the batch.
     */
    async record(accountId: string, items: NewOutcome[]): Promise<RecordedOutcomeRecord[]> {
      if (items.length === 0) return [];
      if (new Set(items.map(keyOf)).size !== items.length) throw new Error("outcomes.record: a (request, asset, metric) appears twice in one batch");
      return db.transaction().execute(async (trx) => {
        // Rows the WHERE keeps out are neither updated nor returned, but ON CONFLICT locks
        // them all: the read below sees them as they stay until this transaction ends. A
        // concurrent identical batch waits on our insert, then finds its values unchanged.
        // xmax is 0 only for a row this statement inserted.
        const written = await trx
          .insertInto("outcomes")
          .values(
            items.map((o) => ({
              account_id: accountId,
              request_id: o.requestId,
              asset_id: o.assetId,
              metric: o.metric,
              value: o.value,
              impressions: o.impressions,
              goal: o.goal,
              score: o.score,
              score_before_refine: o.scoreBeforeRefine,
              simulated: o.simulated,
              request_created_at: o.requestCreatedAt,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(["account_id", "request_id", "asset_id", "metric"])
              .doUpdateSet((eb) => ({ value: eb.ref("excluded.value"), impressions: eb.ref("excluded.impressions"), updated_at: sql<Date>`now()` }))
              .where(sql<boolean>`(outcomes.value, outcomes.impressions) is distinct from (excluded.value, excluded.impressions)`),
          )
          .returning([...COLUMNS, sql<boolean>`xmax = 0`.as("inserted")])
          .execute();

        const byKey = new Map<string, RecordedOutcomeRecord>();
        for (const { inserted, ...row } of written) {
          const record = toRecord(row);
          byKey.set(keyOf(record), { ...record, change: inserted ? "created" : "updated" });
        }
        const untouched = items.filter((o) => !byKey.has(keyOf(o)));
        if (untouched.length > 0) {
          const rows = await trx
            .selectFrom("outcomes")
            .select(COLUMNS)
            .where("account_id", "=", accountId)
            .where((eb) => eb(eb.refTuple("request_id", "asset_id", "metric"), "in", untouched.map((o) => eb.tuple(o.requestId, o.assetId, o.metric))))
            .execute();
          for (const row of rows) {
            const record = toRecord(row);
            byKey.set(keyOf(record), { ...record, change: "unchanged" });
          }
        }
        return items.map((o) => {
          const recorded = byKey.get(keyOf(o));
          if (!recorded) throw new Error(`outcomes.record: no row for ${keyOf(o)} after the upsert`);
          return recorded;
        });
      });
    },

    /** The account's outcomes, by metric, goal, request and asset; optionally one metric and/or goal. */
    async listForAccount(accountId: string, filter: { metric?: string | undefined; goal?: string | undefined } = {}): Promise<OutcomeRecord[]> {
      const rows = await db
        .selectFrom("outcomes")
        .select(COLUMNS)
        .where("account_id", "=", accountId)
        .$if(filter.metric !== undefined, (q) => q.where("metric", "=", filter.metric!))
        .$if(filter.goal !== undefined, (q) => q.where("goal", "=", filter.goal!))
        .orderBy("metric")
        .orderBy("goal")
        .orderBy("request_id")
        .orderBy("asset_id")
        .execute();
      return rows.map(toRecord);
    },

    /**
     * The account's stored requests among `requestIds`, by id. Another account's request, an
     * unknown one and a purged one are all simply absent. Images are not restored: outcomes
     * need scores, not pixels.
     */
    async findRequestResults(accountId: string, requestIds: readonly string[]): Promise<Map<string, StoredRequestResult>> {
      const ids = [...new Set(requestIds)];
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("api_requests")
        .select(["request_id", "operation", "state", "created_at", "result_body"])
        .where("account_id", "=", accountId)
        .where("request_id", "in", ids)
        .execute();
      return new Map(rows.map((r) => [r.request_id, { requestId: r.request_id, operation: r.operation, state: r.state, createdAt: r.created_at, resultBody: r.result_body === null ? null : parseableJson(r.result_body) }]));
    },
  };
}

export type OutcomesRepository = ReturnType<typeof outcomesRepository>;
