/**
 * Failed sign-ins per email and per client address in a sliding window: after `maxFailures`
 * the next attempt is refused until the oldest failure ages out. A success clears the email's
 * count. Kept in memory: with several console replicas each counts its own share, so the
 * effective limit is at most replicas x maxFailures (stated in the README).
 */
export function createSignInLimiter({ maxFailures = 5, windowMs = 15 * 60_000, now = Date.now } = {}) {
  const failures = new Map<string, number[]>();
  const recent = (key: string) => {
    const kept = (failures.get(key) ?? []).filter((t) => t > now() - windowMs);
    if (kept.length > 0) failures.set(key, kept);
    else failures.delete(key);
    return kept;
  };
  const keys = (email: string, ip: string) => [`email:${email.toLowerCase()}`, `ip:${ip}`];
  return {
    /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
    retryAfter(email: string, ip: string): number {
      let wait = 0;
      for (const key of keys(email, ip)) {
        const times = recent(key);
        // An address gets more room than one email: several people may share it.
        const limit = key.startsWith("ip:") ? maxFailures * 4 : maxFailures;
        if (times.length >= limit) wait = Math.max(wait, Math.ceil((times[times.length - limit]! + windowMs - now()) / 1000));
      }
      return wait;
    },
    fail(email: string, ip: string): void {
      for (const key of keys(email, ip)) failures.set(key, [...recent(key), now()]);
    },
    succeed(email: string): void {
      failures.delete(`email:${email.toLowerCase()}`);
    },
  };
}
export type SignInLimiter = ReturnType<typeof createSignInLimiter>;
