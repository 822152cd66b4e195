import { createHash } from "node:crypto";
import type { ConsoleLimitsRepository } from "@adrank/db/repositories";
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
 * Fixed-window counters in Postgres (through `store`), so every console replica counts against
 * the same limits. Each increment is one atomic statement across processes, counted before the
 * work it limits.
 *
 * @example const counters = createLimitCounters(consoleLimitsRepository(db));
 */
export function createLimitCounters(store: ConsoleLimitsRepository, { now = Date.now, pruneEveryMs = 60_000 }: { now?: () => number; pruneEveryMs?: number } = {}) {
  let prunedAt = -Infinity;

  const counters = {
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
        await counters.prune();
      }
      const taken: TakenSlot[] = [];
      for (const slot of slots) {
        const at = now();
        const window = windowOf(at, slot.windowMs);
        const key = counterKey(slot.scope, slot.subject);
        const count = await store.increment(key, window);
        taken.push({ key, windowStart: window.start });
        if (count > slot.limit) {
          await counters.giveBack(taken);
          return { ok: false, scope: slot.scope, retryAfter: secondsUntil(window.end, at) };
        }
      }
      return { ok: true, taken };
    },

    /** Undoes counted attempts (the attempt turned out not to count, e.g. a right password). */
    async giveBack(taken: TakenSlot[]): Promise<void> {
      for (const t of taken) await store.decrement(t.key, t.windowStart);
    },

    /** Forgets every window of one counter (a successful sign-in clears the email's failures). */
    async clear(scope: string, subject: string): Promise<void> {
      await store.clear(counterKey(scope, subject));
    },

    /** Removes the windows that have ended; returns how many. */
    async prune(): Promise<number> {
      return store.pruneEnded(new Date(now()));
    },
  };
  return counters;
}
export type LimitCounters = ReturnType<typeof createLimitCounters>;
