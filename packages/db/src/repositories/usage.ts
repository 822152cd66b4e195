import { sql, type Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

export interface CreditBalance {
  granted: number;
  used: number;
  reserved: number;
  /** granted - used - reserved. */
  available: number;
}

export interface UsageDay {
  /** The UTC day of settlement, `YYYY-MM-DD`. */
  day: string;
  kind: "scoring" | "pairwise";
  units: number;
}

/** Calls and tokens of one model for one account and kind over a range of days. */
export interface ModelSpend {
  accountId: string;
  /** "provider:model". */
  model: string;
  kind: "scoring" | "pairwise";
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** UTC days, `YYYY-MM-DD`, both included; one account, or every account when `accountId` is absent. */
export interface ModelSpendQuery {
  from: string;
  to: string;
  accountId?: string;
}

/**
 * Credits and usage as the ledger's Postgres mirror sees them. The mirror may hold several
 * namespaces' LEDGER streams, so the repository is bound to one stream and every read filters
 * on it: another namespace's account of the same id must never show up.
 */
export function usageRepository(db: Kysely<Database>, stream: string) {
  return {
    /** null when the mirror has not seen the account yet. */
    async balance(accountId: string): Promise<CreditBalance | null> {
      const row = await db.selectFrom("account_balances").select(["granted", "used", "reserved", "available"]).where("stream", "=", stream).where("account_id", "=", accountId).executeTakeFirst();
      return row ? { granted: Number(row.granted), used: Number(row.used), reserved: Number(row.reserved), available: Number(row.available) } : null;
    },

    /** Settled units per UTC day and kind over the last 30 days (today included), oldest first. */
    async lastThirtyDays(accountId: string): Promise<UsageDay[]> {
      const rows = await db
        .selectFrom("usage_per_day")
        .select(["day", "kind", "units_used"])
        .where("stream", "=", stream)
        .where("account_id", "=", accountId)
        .where("day", ">=", sql<Date>`(now() at time zone 'UTC')::date - 29`)
        .orderBy("day")
        .execute();
      // pg parses a `date` into a Date at local midnight: toISOString gives back that day only
      // where the process runs in UTC. Kept as the console has always read it.
      return rows.map((d) => ({ day: (d.day instanceof Date ? d.day.toISOString() : String(d.day)).slice(0, 10), kind: d.kind, units: Number(d.units_used) }));
    },

    /**
     * Model spend summed over a range of UTC days of settlement, per account, model and kind,
     * ordered by account, model and kind.
     *
     * @example
     * await usage.modelSpend({ from: "2026-11-01", to: "2026-11-30", accountId: "acct_1" });
     * // [{ accountId: "acct_1", model: "openai:gpt-5-mini", kind: "scoring", calls: 12, inputTokens: 57744, outputTokens: 3720 }]
     */
    async modelSpend({ from, to, accountId }: ModelSpendQuery): Promise<ModelSpend[]> {
      let query = db
        .selectFrom("ledger_model_usage")
        .select((eb) => [
          "account_id",
          "model",
          "kind",
          sql<number>`sum(${eb.ref("calls")})::bigint`.as("calls"),
          sql<number>`sum(${eb.ref("input_tokens")})::bigint`.as("input_tokens"),
          sql<number>`sum(${eb.ref("output_tokens")})::bigint`.as("output_tokens"),
        ])
        .where("stream", "=", stream)
        .where("day", ">=", sql<Date>`${from}::date`)
        .where("day", "<=", sql<Date>`${to}::date`);
      if (accountId !== undefined) query = query.where("account_id", "=", accountId);
      const rows = await query.groupBy(["account_id", "model", "kind"]).orderBy("account_id").orderBy("model").orderBy("kind").execute();
      return rows.map((r) => ({ accountId: r.account_id, model: r.model, kind: r.kind, calls: Number(r.calls), inputTokens: Number(r.input_tokens), outputTokens: Number(r.output_tokens) }));
    },
  };
}
export type UsageRepository = ReturnType<typeof usageRepository>;
