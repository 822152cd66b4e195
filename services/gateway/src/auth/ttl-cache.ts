/**
 * A small map whose entries expire after `ttlMs` and whose size is bounded (oldest entry out
 * first), so look-ups of made-up keys cannot grow it without limit. The clock is passed in.
 */
export interface TtlCache<V> {
  /** The entry, or undefined when it is missing or expired. A cached `null` is a hit. */
  get(key: string): { value: V } | undefined;
  set(key: string, value: V): void;
  size(): number;
}

export function createTtlCache<V>({ ttlMs, maxEntries, now }: { ttlMs: number; maxEntries: number; now: () => number }): TtlCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return { value: hit.value };
    },
    set(key, value) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    size: () => entries.size,
  };
}
