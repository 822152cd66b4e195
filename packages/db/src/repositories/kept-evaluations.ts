import { sql, type Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

/** An evaluation to keep: whose it is, what it answered (its key) and the scorer method that made it. */
export interface KeptEvaluation {
  /** ADRANK_NAMESPACE: deployments sharing the database never read each other's. */
  namespace: string;
  accountId: string;
  key: string;
  methodKey: string;
  /** The scorer's Evaluation, stored as JSON. */
  evaluation: unknown;
}

/** What a look-up asks: one account's keys under one method key, in one namespace. */
export interface KeptEvaluationQuery {
  namespace: string;
  accountId: string;
  methodKey: string;
  keys: readonly string[];
}

/**
 * Evaluations kept for reuse across requests (issue 36). The account and the namespace are in
 * the primary key and in every query: an account never reads another's evaluation, however
 * alike their creatives. Rows expire; `find` ignores expired ones and `deleteExpired` removes them.
 */
export function keptEvaluationsRepository(db: Kysely<Database>) {
  return {
    /**
     * Keeps evaluations for `ttlHours` from now, in one statement. A newer evaluation of the same
     * key replaces the older one (and its expiry); within one call the last of a key wins.
     *
     * @example
     * await repo.keepMany([{ namespace: "", accountId, key, methodKey, evaluation }], 168);
     */
    async keepMany(rows: readonly KeptEvaluation[], ttlHours: number): Promise<void> {
      // Postgres refuses an upsert that touches one row twice: the last of a key wins.
      const latest = new Map<string, KeptEvaluation>();
      for (const r of rows) latest.set(JSON.stringify([r.namespace, r.accountId, r.key]), r);
      if (latest.size === 0) return;
      const expiresAt = sql<Date>`now() + make_interval(hours => ${ttlHours})`;
      await db
        .insertInto("kept_evaluations")
        .values(
          [...latest.values()].map((r) => ({
            namespace: r.namespace,
            account_id: r.accountId,
            key: r.key,
            method_key: r.methodKey,
            evaluation: JSON.stringify(r.evaluation),
            expires_at: expiresAt,
          })),
        )
        .onConflict((oc) =>
          oc.columns(["namespace", "account_id", "key"]).doUpdateSet((eb) => ({
            method_key: eb.ref("excluded.method_key"),
            evaluation: eb.ref("excluded.evaluation"),
            kept_at: sql<Date>`now()`,
            expires_at: eb.ref("excluded.expires_at"),
          })),
        )
        .execute();
    },

    /** The account's unexpired evaluations of `keys` kept under `methodKey`, by key; keys without one are absent. */
    async find(q: KeptEvaluationQuery): Promise<Map<string, unknown>> {
      if (q.keys.length === 0) return new Map();
      const rows = await db
        .selectFrom("kept_evaluations")
        .select(["key", "evaluation"])
        .where("namespace", "=", q.namespace)
        .where("account_id", "=", q.accountId)
        .where("method_key", "=", q.methodKey)
        .where("key", "in", [...new Set(q.keys)])
        .where("expires_at", ">", sql<Date>`now()`)
        .execute();
      return new Map(rows.map((r) => [r.key, JSON.parse(r.evaluation) as unknown]));
    },

    /** Deletes up to `limit` expired evaluations of `namespace`, the longest expired first; returns how many. */
    async deleteExpired(namespace: string, limit: number): Promise<number> {
      const result = await db
        .deleteFrom("kept_evaluations")
        .where("namespace", "=", namespace)
        .where((eb) =>
          eb(
            eb.refTuple("account_id", "key"),
            "in",
            eb
              .selectFrom("kept_evaluations")
              .select(["account_id", "key"])
              .where("namespace", "=", namespace)
              .where("expires_at", "<=", sql<Date>`now()`)
              .orderBy("expires_at")
              .limit(limit)
              .$asTuple("account_id", "key"),
          ),
        )
        .where("expires_at", "<=", sql<Date>`now()`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type KeptEvaluationsRepository = ReturnType<typeof keptEvaluationsRepository>;
