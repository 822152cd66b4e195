/** The read side of a `Headers` object, so SDK errors and plain fetch responses both fit. */
export interface HeaderReader {
  get(name: string): string | null | undefined;
}

/**
 * How long a provider asked us to wait before the next attempt, or undefined when it did not
 * say. `retry-after-ms` (sent by OpenAI) wins over `Retry-After`, which is either delta
 * seconds or an HTTP-date. A date in the past means "now".
 */
export function retryAfterMs(headers: HeaderReader | null | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms")?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
