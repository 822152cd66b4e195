/**
 * The fixed window a moment falls in: windows of `windowMs` aligned to the Unix epoch, so
 * every console replica (clocks kept by NTP) puts an attempt in the same window.
 *
 * @example windowOf(Date.parse("2026-11-24T10:40:00Z"), 3_600_000) // 10:00 to 11:00
 */
export function windowOf(nowMs: number, windowMs: number): { start: Date; end: Date } {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

/** Whole seconds until `end`, at least 1: what Retry-After says. */
export function secondsUntil(end: Date, nowMs: number): number {
  return Math.max(1, Math.ceil((end.getTime() - nowMs) / 1000));
}

/** "Try again in 40 seconds." / "Try again in 1 minute." / "Try again in 12 minutes." */
export function tryAgainIn(seconds: number): string {
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
