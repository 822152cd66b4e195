import { sql, type Kysely, type Transaction } from "kysely";
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
  /** The asset's rank in its ranking; null for outcomes recorded before it was copied. */
  rank: number | null;
  /** The probability the ranking gave that the asset outranks the next one; null for the last asset and for older records. */
  pAboveNext: number | null;
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
  operation: "rank" | "pairwise" | "rank_audiences";
  state: "running" | "succeeded" | "failed";
  createdAt: Date;
  /** The response as JSON text, each long data URI replaced by a stored-image token (not restored); null while running. */
  resultBody: string | null;
}

const COLUMNS = ["request_id", "asset_id", "metric", "value", "impressions", "goal", "score", "score_before_refine", "simulated", "rank", "p_above_next", "request_created_at", "updated_at"] as const;

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
  rank: number | null;
  p_above_next: number | null;
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
  rank: r.rank,
  pAboveNext: r.p_above_next,
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

/** What one account may store at most: distinct metric names, and outcome rows. */
export interface OutcomeQuota {
  maxMetrics: number;
  maxRows: number;
}

/**
 * A batch that would take its account past an OutcomeQuota: nothing of it was written.
 * `stored` is what the account holds (counted up to the limit and one), `adding` what the
 * batch would add; for metrics, `metric` is the first new name that does not fit.
 */
export class OutcomeQuotaExceeded extends Error {
  override name = "OutcomeQuotaExceeded";
  readonly quota: "metrics" | "rows";
  readonly limit: number;
  readonly stored: number;
  readonly adding: number;
  readonly metric: string | null;
  constructor(breach: { quota: "metrics" | "rows"; limit: number; stored: number; adding: number; metric?: string }) {
    super(`outcome ${breach.quota} quota of ${breach.limit} exceeded: ${breach.stored} stored, ${breach.adding} more in the batch`);
    this.quota = breach.quota;
    this.limit = breach.limit;
    this.stored = breach.stored;
    this.adding = breach.adding;
    this.metric = breach.metric ?? null;
  }
}

/** Outcomes of one read: the newest first, at most `limit`; `truncated` when the account holds more. */
export interface OutcomesRead {
  rows: OutcomeRecord[];
  truncated: boolean;
}

/**
 * Observed outcomes, always read and written through their owner: another account's rows
 * and requests do not exist here. One value per (account, request, asset, metric).
 */
export function outcomesRepository(db: Kysely<Database>) {
  return {
    /**
     * Upserts a batch in one transaction and says, in input order, what each item did: a new
     * key is "created", a different value or impressions "updated", the same ones "unchanged"
     * (its recordedAt stays). Keys must be distinct within the batch. With a `quota`, a batch
     * whose new rows would take the account past it throws OutcomeQuotaExceeded and writes nothing.
     */
    async record(accountId: string, items: NewOutcome[], quota?: OutcomeQuota): Promise<RecordedOutcomeRecord[]> {
      if (items.length === 0) return [];
      if (new Set(items.map(keyOf)).size !== items.length) throw new Error("outcomes.record: a (request, asset, metric) appears twice in one batch");
      return db.transaction().execute(async (trx) => {
        if (quota) await admitWithin(trx, accountId, items, quota);
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
              rank: o.rank,
              p_above_next: o.pAboveNext,
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

    /**
     * What a calibration report reads: the account's outcomes (optionally one metric and/or
     * goal), the most recently recorded first, at most `limit`, and whether more were left out.
     * The query is cancelled by the database after `timeoutMs` (SQLSTATE 57014), so a slow
     * read cannot hold a connection longer than the report may take.
     */
    async readForCalibration(accountId: string, filter: { metric?: string | undefined; goal?: string | undefined }, opts: { limit: number; timeoutMs: number }): Promise<OutcomesRead> {
      return db.transaction().execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${String(Math.max(1, Math.round(opts.timeoutMs)))}, true)`.execute(trx);
        const rows = await selectOfAccount(trx, accountId, filter)
          .orderBy("updated_at", "desc")
          .orderBy("request_id")
          .orderBy("asset_id")
          .orderBy("metric")
          .limit(opts.limit + 1)
          .execute();
        return { rows: rows.slice(0, opts.limit).map(toRecord), truncated: rows.length > opts.limit };
      });
    },

    /** The (metric, goal) pairs the account holds outcomes for: a handful, since metric names are capped per account. */
    async listMetricGoals(accountId: string): Promise<Array<{ metric: string; goal: string }>> {
      return db.selectFrom("outcomes").select(["metric", "goal"]).distinct().where("account_id", "=", accountId).orderBy("metric").orderBy("goal").execute();
    },

    /** The account's outcomes, by metric, goal, request and asset; optionally one metric and/or goal. */
    async listForAccount(accountId: string, filter: { metric?: string | undefined; goal?: string | undefined } = {}): Promise<OutcomeRecord[]> {
      const rows = await selectOfAccount(db, accountId, filter)
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

/** The account's outcomes, optionally of one metric and/or goal: what every read starts from. */
const selectOfAccount = (db: Kysely<Database>, accountId: string, filter: { metric?: string | undefined; goal?: string | undefined }) =>
  db
    .selectFrom("outcomes")
    .select(COLUMNS)
    .where("account_id", "=", accountId)
    .$if(filter.metric !== undefined, (q) => q.where("metric", "=", filter.metric!))
    .$if(filter.goal !== undefined, (q) => q.where("goal", "=", filter.goal!));

/**
 * Refuses a batch whose new rows would take the account past its quota. Writers of one
 * account queue on a transaction lock, so two batches cannot both fit the last room. Every
 * count stops at the limit and one: the check costs the same however much an account held
 * before quotas existed.
 */
async function admitWithin(trx: Transaction<Database>, accountId: string, items: readonly NewOutcome[], quota: OutcomeQuota): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`outcomes:${accountId}`}, 0))`.execute(trx);
  const stored = await trx
    .selectFrom("outcomes")
    .select(["request_id", "asset_id", "metric"])
    .where("account_id", "=", accountId)
    .where((eb) => eb(eb.refTuple("request_id", "asset_id", "metric"), "in", items.map((o) => eb.tuple(o.requestId, o.assetId, o.metric))))
    .execute();
  const known = new Set(stored.map((r) => keyOf({ requestId: r.request_id, assetId: r.asset_id, metric: r.metric })));
  const fresh = items.filter((o) => !known.has(keyOf(o)));
  if (fresh.length === 0) return;

  const freshMetrics = [...new Set(fresh.map((o) => o.metric))];
  const knownMetrics = await trx.selectFrom("outcomes").select("metric").distinct().where("account_id", "=", accountId).where("metric", "in", freshMetrics).execute();
  const newMetrics = freshMetrics.filter((m) => !knownMetrics.some((k) => k.metric === m));
  if (newMetrics.length > 0) {
    const metrics = await distinctMetricsUpTo(trx, accountId, quota.maxMetrics + 1);
    if (metrics + newMetrics.length > quota.maxMetrics) {
      throw new OutcomeQuotaExceeded({ quota: "metrics", limit: quota.maxMetrics, stored: metrics, adding: newMetrics.length, metric: newMetrics[Math.max(0, quota.maxMetrics - metrics)]! });
    }
  }
  const counted = await sql<{ n: string }>`select count(*) as n from (select 1 from outcomes where account_id = ${accountId} limit ${quota.maxRows + 1}) as stored`.execute(trx);
  const rows = Number(counted.rows[0]?.n ?? 0);
  if (rows + fresh.length > quota.maxRows) throw new OutcomeQuotaExceeded({ quota: "rows", limit: quota.maxRows, stored: rows, adding: fresh.length });
}

/**
 * How many distinct metric names the account holds, counted up to `cap`: a walk down the
 * (account_id, metric) index, one probe per name, instead of reading every row.
 */
async function distinctMetricsUpTo(trx: Transaction<Database>, accountId: string, cap: number): Promise<number> {
  const r = await sql<{ n: string }>`
    with recursive names(metric) as (
      (select metric from outcomes where account_id = ${accountId} order by metric limit 1)
      union all
      select (select o.metric from outcomes o where o.account_id = ${accountId} and o.metric > names.metric order by o.metric limit 1)
      from names where names.metric is not null
    )
    select count(*) as n from (select metric from names where metric is not null limit ${cap}) as capped`.execute(trx);
  return Number(r.rows[0]?.n ?? 0);
}

export type OutcomesRepository = ReturnType<typeof outcomesRepository>;
