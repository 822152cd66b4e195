/**
 * A least-recently-used map that holds at most `capacity` entries, so a cache in a
 * long-running scorer stays bounded however many distinct keys it sees.
 */
export class BoundedCache<K, V> {
  readonly capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`cache capacity must be a whole number, got ${capacity}`);
    this.capacity = capacity;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    // Re-inserting moves the key to the young end of the Map's insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** A function of one string that remembers its last `capacity` answers. `fn` must be pure and never return undefined. */
export function memoizeText<V>(fn: (text: string) => V, capacity: number): ((text: string) => V) & { readonly cache: BoundedCache<string, V> } {
  const cache = new BoundedCache<string, V>(capacity);
  const memoized = (text: string): V => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const value = fn(text);
    cache.set(text, value);
    return value;
  };
  return Object.assign(memoized, { cache });
}
