import { secondsUntil, windowOf } from "./fixed-window.ts";

export interface UnauthenticatedLimits {
  /** 401s one client address (an IPv6 /64) may get per window before it gets 429s instead. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_UNAUTHENTICATED_LIMITS: UnauthenticatedLimits = { perAddress: 60, windowMs: 60_000 };

/** Addresses remembered at once: about 100 bytes each, so at most some 10 MB however many addresses call. */
export const ADDRESSES_TRACKED = 100_000;

/**
 * Counts the 401s each client address gets from the console's API (no session, or one that
 * does not exist) in fixed windows, so an address past its share is refused with 429 before
 * its next cookie is looked up in Postgres. Kept in this process's memory, not Postgres: a
 * failure that cost nothing (no cookie) must not cost a database write to count. Each replica
 * so allows `perAddress` of its own; the limit bounds the work one address makes, not a secret.
 */
export function createUnauthenticatedLimiter(limits: UnauthenticatedLimits, { now = Date.now, capacity = ADDRESSES_TRACKED }: { now?: () => number; capacity?: number } = {}) {
  let windowStart = -Infinity;
  const counts = new Map<string, number>();
  // Fixed windows: when one ends every count ends with it.
  const current = () => {
    const at = now();
    const window = windowOf(at, limits.windowMs);
    if (window.start.getTime() !== windowStart) {
      windowStart = window.start.getTime();
      counts.clear();
    }
    return { at, window };
  };
  return {
    /** Seconds until the address may try again, or null while it is within its share. */
    retryAfter(address: string): number | null {
      const { at, window } = current();
      return (counts.get(address) ?? 0) >= limits.perAddress ? secondsUntil(window.end, at) : null;
    },
    /** Counts one 401 against the address. */
    record(address: string): void {
      current();
      const count = counts.get(address);
      if (count === undefined && counts.size >= capacity) {
        // Full: the address counted longest ago makes room (a Map iterates in insertion order).
        counts.delete(counts.keys().next().value!);
      }
      counts.set(address, (count ?? 0) + 1);
    },
  };
}
export type UnauthenticatedLimiter = ReturnType<typeof createUnauthenticatedLimiter>;
