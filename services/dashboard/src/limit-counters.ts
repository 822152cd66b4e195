import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "@adrank/db";
import { secondsUntil, windowOf } from "./fixed-window.ts";

/** One limit an attempt must fit in: at most `limit` in each fixed window of `windowMs`. */
export interface LimitSlot {
  /** What is limited, e.g. `signup:address`; with `subject` it names the counter. */
  scope: string;
  /** Whose attempts (an email, an address); hashed before it is stored. Empty for a global limit. */
  subject: string;
  limit: number;
  windowMs: number;
}

/** A counted attempt: enough to give it back or clear it later. */
export interface TakenSlot {
  key: string;
  windowStart: Date;
}

export type TakeResult = { ok: true; taken: TakenSlot[] } | { ok: false; scope: string; retryAfter: number };

/** The counter's name: the scope in clear, the subject hashed, so no email or address sits in the table. */
export const counterKey = (scope: string, subject: string) => (subject === "" ? scope : `${scope}:${createHash("sha256").update(subject).digest("hex")}`);

/**
 * Fixed-window counters in Postgres, so every console replica counts against the same limits.
 * Each increment is one `insert … on conflict … do update … returning` statement: atomic
 * across processes, and counted before the work it limits.
 *
 * @example const counters = limitCountersRepository(db);
 */
export function limitCountersRepository(db: Kysely<Database>, { now = Date.now, pruneEveryMs = 60_000 }: { now?: () => number; pruneEveryMs?: number } = {}) {
  let prunedAt = -Infinity;
  const add = async (key: string, window: { start: Date; end: Date }): Promise<number> => {
    const row = await db
      .insertInto("dashboard_limit_counters")
      .values({ key, window_start: window.start, window_end: window.end, count: 1 })
      .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet((eb) => ({ count: eb("dashboard_limit_counters.count", "+", 1) })))
      .returning("count")
      .executeTakeFirstOrThrow();
    return row.count;
  };

  const repo = {
    /**
     * Counts one attempt against every slot, in order, or against none: when a slot is full,
     * the attempt is given back to the slots already counted and the answer says which scope
     * refused and for how long. A refused attempt so leaves nothing behind.
     *
     * @example await counters.take([{ scope: "signup:address", subject: ip, limit: 5, windowMs: 3_600_000 }])
     */
    async take(slots: LimitSlot[]): Promise<TakeResult> {
      // Ended windows are removed now and then, by whichever replica gets there first.
      if (now() - prunedAt >= pruneEveryMs) {
        prunedAt = now();
        await repo.prune();
      }
      const taken: TakenSlot[] = [];
      for (const slot of slots) {
        const at = now();
        const window = windowOf(at, slot.windowMs);
        const key = counterKey(slot.scope, slot.subject);
        const count = await add(key, window);
        taken.push({ key, windowStart: window.start });
        if (count > slot.limit) {
          await repo.giveBack(taken);
          return { ok: false, scope: slot.scope, retryAfter: secondsUntil(window.end, at) };
        }
      }
      return { ok: true, taken };
    },

    /** Undoes counted attempts (the attempt turned out not to count, e.g. a right password). */
    async giveBack(taken: TakenSlot[]): Promise<void> {
      for (const t of taken) {
        await db
          .updateTable("dashboard_limit_counters")
          .set((eb) => ({ count: eb("count", "-", 1) }))
          .where("key", "=", t.key)
          .where("window_start", "=", t.windowStart)
          .where("count", ">", 0)
          .execute();
      }
    },

    /** Forgets every window of one counter (a successful sign-in clears the email's failures). */
    async clear(scope: string, subject: string): Promise<void> {
      await db.deleteFrom("dashboard_limit_counters").where("key", "=", counterKey(scope, subject)).execute();
    },

    /** Removes the windows that have ended; returns how many. */
    async prune(): Promise<number> {
      const result = await db.deleteFrom("dashboard_limit_counters").where("window_end", "<=", new Date(now())).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
  return repo;
}
export type LimitCountersRepository = ReturnType<typeof limitCountersRepository>;
