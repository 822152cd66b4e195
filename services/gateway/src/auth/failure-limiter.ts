/**
 * Counts failed key checks per client address (an IPv6 /64 as one) in fixed windows that
 * start at an address's first failure. Once an address has `limit` failures in its window,
 * `refusal` names how long it must wait, and the caller answers 429 before any key look-up:
 * guessing keys then costs no query until the window ends.
 *
 * In memory, per process: each gateway replica counts on its own, so behind N replicas an
 * address gets up to limit × N failures per window.
 *
 * Memory is bounded: at most `maxAddresses` windows are kept. Windows all last as long and are
 * kept in the order they started, so ended ones are dropped from the front as new ones come.
 * When the table is full of windows still running, an address not in it is counted in one
 * overflow window shared by every such address, with the same limit; once that is full,
 * every address not in the table waits for it. Nothing is ever evicted early, so many
 * addresses cannot buy one of them a fresh count: past the table, being many addresses buys
 * `limit` more failures per window in all, not per address. The cost, only while more than
 * `maxAddresses` addresses fail keys at once, is that a new address may wait for the overflow
 * window too.
 */
export interface AuthFailureLimiter {
  /** Null when the address may present a key now; else how long it must wait, and the limit it reached. */
  refusal(address: string): AuthFailureRefusal | null;
  /** A presented key was not accepted (or is being looked up: see `forgive`). */
  recordFailure(address: string): void;
  /** Takes back one failure counted ahead of a look-up whose key was then accepted. */
  forgive(address: string): void;
  /** Addresses with a window in the table (not counting the overflow window). */
  size(): number;
}

export interface AuthFailureRefusal {
  /** Whole seconds until the window ends (at least 1). */
  retryAfter: number;
  /** Unix epoch seconds when it ends. */
  resetAt: number;
  limit: number;
  windowSeconds: number;
}

export interface AuthFailureLimits {
  /** Failed key checks an address may make per window before it waits. */
  limit: number;
  windowMs: number;
  /** Windows kept at once (bounded memory). */
  maxAddresses: number;
}

interface Window {
  failures: number;
  endsAt: number;
}

export function createAuthFailureLimiter({ limit, windowMs, maxAddresses, now }: AuthFailureLimits & { now: () => number }): AuthFailureLimiter {
  const windows = new Map<string, Window>();
  // The addresses in the order their windows started, which is the order they end. (Not the
  // map's own order: iterating a Map from its start walks over every entry deleted since its
  // last rehash, which made dropping ended windows quadratic.)
  let started: string[] = [];
  let head = 0;
  let overflow: Window | null = null;

  const dropEnded = (t: number) => {
    while (head < started.length && windows.get(started[head]!)!.endsAt <= t) windows.delete(started[head++]!);
    if (head > 1_024 && head * 2 > started.length) {
      started = started.slice(head);
      head = 0;
    }
    if (overflow && overflow.endsAt <= t) overflow = null;
  };
  /** The running window that counts this address, if any. */
  const windowOf = (address: string, t: number): Window | null => {
    dropEnded(t);
    return windows.get(address) ?? (windows.size >= maxAddresses ? overflow : null);
  };

  return {
    refusal(address) {
      const t = now();
      const w = windowOf(address, t);
      if (!w || w.failures < limit) return null;
      return { retryAfter: Math.max(1, Math.ceil((w.endsAt - t) / 1000)), resetAt: Math.ceil(w.endsAt / 1000), limit, windowSeconds: Math.round(windowMs / 1000) };
    },
    recordFailure(address) {
      const t = now();
      let w = windowOf(address, t);
      if (!w) {
        w = { failures: 0, endsAt: t + windowMs };
        if (windows.size < maxAddresses) {
          windows.set(address, w);
          started.push(address);
        } else overflow = w;
      }
      w.failures++;
    },
    forgive(address) {
      const w = windowOf(address, now());
      if (w && w.failures > 0) w.failures--;
    },
    size: () => windows.size,
  };
}
