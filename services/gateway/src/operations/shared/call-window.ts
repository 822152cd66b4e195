/** Accounts one gateway counts calls of at once: a bound on memory (about 100 bytes each), far above real use. */
export const CALL_WINDOW_MAX_ACCOUNTS = 100_000;

/** The answer to one call: counted, or refused until the window ends. */
export type CallVerdict = { ok: true } | { ok: false; retryAfter: number; resetAt: number };

export interface CallWindow {
  /** Counts one call of `accountId` in the current window, or refuses it when the window is full. */
  take(accountId: string): CallVerdict;
  /** Accounts counted in the current window (tests and metrics). */
  size(): number;
}

export interface CallWindowOptions {
  /** Calls one account may make per window. */
  limit: number;
  windowMs: number;
  /**
   * Accounts counted at once. Only accounts with a valid key reach the window, so this is a
   * safety bound, not a working limit: beyond it a call is let through uncounted rather than
   * refusing an account for another's traffic.
   */
  maxAccounts: number;
  now: () => number;
}

/**
 * Calls per account in fixed windows aligned to the epoch, counted in this process's memory.
 * Meant for free endpoints whose cost is ours (recording outcomes, calibration reports): with
 * several gateways an account may make `limit` calls on each. Memory holds the current
 * window's accounts only: the counts are dropped whole when a window ends.
 */
export function createCallWindow({ limit, windowMs, maxAccounts, now }: CallWindowOptions): CallWindow {
  let windowStart = Number.NEGATIVE_INFINITY;
  const counts = new Map<string, number>();
  return {
    take(accountId) {
      const at = now();
      const start = Math.floor(at / windowMs) * windowMs;
      if (start !== windowStart) {
        windowStart = start;
        counts.clear();
      }
      const count = counts.get(accountId) ?? 0;
      if (count >= limit) {
        const end = start + windowMs;
        return { ok: false, retryAfter: Math.max(1, Math.ceil((end - at) / 1000)), resetAt: Math.ceil(end / 1000) };
      }
      if (count > 0 || counts.size < maxAccounts) counts.set(accountId, count + 1);
      return { ok: true };
    },
    size: () => counts.size,
  };
}
