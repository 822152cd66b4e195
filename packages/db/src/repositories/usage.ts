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
  };
}
export type UsageRepository = ReturnType<typeof usageRepository>;
