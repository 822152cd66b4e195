/**
 * A least-recently-used map bounded by the total size of its values, not their count: a few
 * large images must not push memory past the budget.
 */
export class ByteLru<V> {
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V) => number;
  readonly #entries = new Map<string, { value: V; size: number }>();
  #bytes = 0;

  constructor(maxBytes: number, sizeOf: (value: V) => number) {
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Re-inserting moves the key to the young end of the Map's insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const size = this.#sizeOf(value);
    this.delete(key);
    if (size > this.#maxBytes) return;
    this.#entries.set(key, { value, size });
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.size;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}
