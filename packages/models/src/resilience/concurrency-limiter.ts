/** A counting semaphore: at most `limit` holders at once, waiters served first come first served. */
export interface ConcurrencyLimiter {
  readonly limit: number;
  readonly active: number;
  readonly waiting: number;
  /** Resolves with a release function once a slot is free; rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void>;
}

export function createConcurrencyLimiter(limit: number): ConcurrencyLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  let active = 0;
  const queue: Array<() => void> = [];

  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      // Hand the slot straight to the next waiter so a newcomer cannot overtake it.
      if (next) next();
      else active--;
    };
  };

  return {
    limit,
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (active < limit) {
        active++;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(releaser());
        };
        const onAbort = () => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(signal?.reason);
        };
        queue.push(grant);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}
