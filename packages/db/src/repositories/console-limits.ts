import type { Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

/** One fixed window of a counter. */
export interface CounterWindow {
  start: Date;
  end: Date;
}

/**
 * Counters of the console's sign-up and sign-in limits, one row per key and fixed window,
 * shared by every console replica. The key is the caller's: it must not hold an email or an
 * address in clear. What is limited, and when an attempt is refused, is the console's rule;
 * this only counts.
 */
export function consoleLimitsRepository(db: Kysely<Database>) {
  return {
    /**
     * Counts one attempt and returns the window's count including it. One
     * `insert … on conflict … do update … returning` statement: atomic across processes, so
     * racing replicas never both see the same count.
     */
    async increment(key: string, window: CounterWindow): Promise<number> {
      const row = await db
        .insertInto("dashboard_limit_counters")
        .values({ key, window_start: window.start, window_end: window.end, count: 1 })
        .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet((eb) => ({ count: eb("dashboard_limit_counters.count", "+", 1) })))
        .returning("count")
        .executeTakeFirstOrThrow();
      return row.count;
    },

    /** Takes one attempt back from a window; a count never goes below zero. */
    async decrement(key: string, windowStart: Date): Promise<void> {
      await db
        .updateTable("dashboard_limit_counters")
        .set((eb) => ({ count: eb("count", "-", 1) }))
        .where("key", "=", key)
        .where("window_start", "=", windowStart)
        .where("count", ">", 0)
        .execute();
    },

    /** Forgets every window of one counter. */
    async clear(key: string): Promise<void> {
      await db.deleteFrom("dashboard_limit_counters").where("key", "=", key).execute();
    },

    /** Removes the windows that ended at or before `at`; returns how many. */
    async pruneEnded(at: Date): Promise<number> {
      const result = await db.deleteFrom("dashboard_limit_counters").where("window_end", "<=", at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type ConsoleLimitsRepository = ReturnType<typeof consoleLimitsRepository>;
