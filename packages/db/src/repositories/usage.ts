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
  /** Every prompt token, cached or not. */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens, read from the provider's prompt cache. */
  cachedInputTokens: number;
  /** Of inputTokens, written to the provider's prompt cache. */
  cacheWriteInputTokens: number;
}

/** ModelSpend of one UTC day of settlement. */
export interface DailyModelSpend extends ModelSpend {
  /** `YYYY-MM-DD`. */
  day: string;
}

/** One model's usage in one settlement, as the ledger recorded it (cache counts absent when not reported). */
export interface SettledModelUsage {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** A settlement of one request: its own reservation, or one a takeover made (`<id>-r<attempt>`). */
export interface RequestSettlement {
  reservationId: string;
  accountId: string;
  kind: "scoring" | "pairwise";
  unitsUsed: number;
  /** ISO time of settlement. */
  settledAt: string;
  modelUsage: SettledModelUsage[];
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
          sql<number>`sum(${eb.ref("cached_input_tokens")})::bigint`.as("cached_input_tokens"),
          sql<number>`sum(${eb.ref("cache_write_input_tokens")})::bigint`.as("cache_write_input_tokens"),
        ])
        .where("stream", "=", stream)
        .where("day", ">=", sql<Date>`${from}::date`)
        .where("day", "<=", sql<Date>`${to}::date`);
      if (accountId !== undefined) query = query.where("account_id", "=", accountId);
      const rows = await query.groupBy(["account_id", "model", "kind"]).orderBy("account_id").orderBy("model").orderBy("kind").execute();
      return rows.map((r) => ({ accountId: r.account_id, model: r.model, kind: r.kind, ...counts(r) }));
    },

    /**
     * The same per UTC day of settlement as well, ordered by day, account, model and kind: the
     * table's own rows, for totals per day.
     */
    async dailyModelSpend({ from, to, accountId }: ModelSpendQuery): Promise<DailyModelSpend[]> {
      let query = db
        .selectFrom("ledger_model_usage")
        .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"), "account_id", "model", "kind", "calls", "input_tokens", "output_tokens", "cached_input_tokens", "cache_write_input_tokens"])
        .where("stream", "=", stream)
        .where("day", ">=", sql<Date>`${from}::date`)
        .where("day", "<=", sql<Date>`${to}::date`);
      if (accountId !== undefined) query = query.where("account_id", "=", accountId);
      const rows = await query.orderBy("day").orderBy("account_id").orderBy("model").orderBy("kind").execute();
      return rows.map((r) => ({ day: r.day, accountId: r.account_id, model: r.model, kind: r.kind, ...counts(r) }));
    },

    /**
     * The settlements of one request, oldest first, from the mirrored events: the request's own
     * reservation and those a takeover reserved for it (`<id>-r<attempt>`). Empty when the
     * mirror holds none (not settled yet, expired, or another namespace's).
     */
    async requestSettlements(requestId: string): Promise<RequestSettlement[]> {
      const likeSafe = requestId.replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = await db
        .selectFrom("ledger_events")
        .select(["account_id", "payload", "at"])
        .where("stream", "=", stream)
        .where("type", "=", "UsageSettled")
        .where((eb) => eb.or([eb(sql<string>`payload->>'reservationId'`, "=", requestId), eb(sql<string>`payload->>'reservationId'`, "like", `${likeSafe}-r%`)]))
        .orderBy("stream_seq")
        .execute();
      const own = new RegExp(`^${requestId.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(-r\\d+)?$`);
      return rows.flatMap((r) => {
        const e = r.payload as { reservationId?: unknown; kind?: unknown; unitsUsed?: unknown; modelUsage?: unknown };
        if (typeof e.reservationId !== "string" || !own.test(e.reservationId)) return [];
        return [
          {
            reservationId: e.reservationId,
            accountId: r.account_id,
            kind: e.kind === "pairwise" ? "pairwise" : "scoring",
            unitsUsed: Number(e.unitsUsed ?? 0),
            settledAt: r.at.toISOString(),
            modelUsage: Array.isArray(e.modelUsage) ? (e.modelUsage as SettledModelUsage[]) : [],
          },
        ];
      });
    },
  };
}

/** The summed counts of a row as numbers (pg returns a sum of bigints as a string). */
const counts = (r: { calls: number; input_tokens: number; output_tokens: number; cached_input_tokens: number; cache_write_input_tokens: number }) => ({
  calls: Number(r.calls),
  inputTokens: Number(r.input_tokens),
  outputTokens: Number(r.output_tokens),
  cachedInputTokens: Number(r.cached_input_tokens),
  cacheWriteInputTokens: Number(r.cache_write_input_tokens),
});
export type UsageRepository = ReturnType<typeof usageRepository>;
