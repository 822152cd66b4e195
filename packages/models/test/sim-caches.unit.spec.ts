import { describe, expect, it } from "vitest";
import { createSimEmbedder, simEmbedding } from "../src/index.ts";
import { BoundedCache, memoizeText } from "../src/sim/bounded-cache.ts";
import { simEmbeddingCache } from "../src/sim/sim-embedder.ts";
import { clauseStance } from "../src/sim/stance.ts";
import { composeStance, mixTables } from "../src/sim/stance-wording.ts";

describe("bounded cache", () => {
  it("never holds more than its capacity, dropping the least recently used first", () => {
    const cache = new BoundedCache<string, number>(3);
    for (const [i, key] of ["a", "b", "c"].entries()) cache.set(key, i);
    expect(cache.get("a")).toBe(0); // "a" is now the most recently used
    cache.set("d", 3);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual([0, 2, 3]);
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, i);
      expect(cache.size).toBeLessThanOrEqual(3);
    }
    expect([cache.get("k997"), cache.get("k998"), cache.get("k999")]).toEqual([997, 998, 999]);
  });

  it("replaces a key's value without growing; a capacity of 0 remembers nothing", () => {
    const cache = new BoundedCache<string, string>(2);
    cache.set("a", "first");
    cache.set("a", "second");
    expect(cache.size).toBe(1);
    expect(cache.get("a")).toBe("second");
    const none = new BoundedCache<string, string>(0);
    none.set("a", "value");
    expect([none.size, none.get("a")]).toEqual([0, undefined]);
    expect(() => new BoundedCache(1.5)).toThrow(RangeError);
    expect(() => new BoundedCache(-1)).toThrow(RangeError);
  });

  it("memoizes a text function, remembering null answers and only the most recent texts", () => {
    const calls: string[] = [];
    const lengthOrNull = memoizeText((text: string) => {
      calls.push(text);
      return text ? text.length : null;
    }, 2);
    expect([lengthOrNull("abc"), lengthOrNull(""), lengthOrNull("abc"), lengthOrNull("")]).toEqual([3, null, 3, null]);
    expect(calls).toEqual(["abc", ""]);
    lengthOrNull("x");
    lengthOrNull("abc"); // dropped when "x" came in: "" was used more recently
    expect(calls).toEqual(["abc", "", "x", "abc"]);
    expect(lengthOrNull.cache.size).toBe(2);
  });
});

describe("the sim's caches stay within their caps in a long run", () => {
  it("reads clauses the same from the cache, and keeps at most its cap of them", () => {
    const { capacity } = clauseStance.cache;
    const sentence = "I would probably not buy this";
    const first = clauseStance(sentence);
    for (let i = 0; i < capacity + 500; i++) clauseStance(`I would probably buy item ${i}`);
    expect(clauseStance.cache.size).toBeLessThanOrEqual(capacity);
    // Pushed out long ago and read afresh: the same answer.
    expect(clauseStance(sentence)).toBe(first);
  });

  it("embeds the same text to the same vector, hands out copies, and keeps at most its cap of vectors", async () => {
    const text = "I would definitely buy this product.";
    const vector = simEmbedding(text);
    vector.fill(0); // the caller's own copy: the cache must not see this
    expect(simEmbedding(text)).not.toEqual(vector);
    const [viaEmbedder] = await createSimEmbedder().embed([text]);
    expect(viaEmbedder).toEqual(simEmbedding(text));

    const { capacity } = simEmbeddingCache;
    for (let i = 0; i < capacity + 200; i++) simEmbedding(`answer number ${i}: I might buy it.`);
    expect(simEmbeddingCache.size).toBe(capacity);
    expect(simEmbedding(text)).toEqual(viaEmbedder);
  });

  it("keeps at most its cap of wording tables, however many different drivers answers react to", () => {
    const { capacity } = mixTables;
    const target = 0.37;
    const drivers = [{ text: "the colours are vivid", tone: 1 as const }];
    const wording = composeStance(target, "buy this product", drivers);
    // Each new driver is a situation of its own, with its own tables: more than the cap of them.
    for (let i = 0; i < capacity + 100; i++) composeStance(((i % 200) - 100) / 100, "buy this product", [{ text: `observation ${i}`, tone: i % 2 ? 1 : -1 }]);
    expect(mixTables.size).toBe(capacity);
    expect(composeStance(target, "buy this product", drivers)).toEqual(wording);
  });
});
