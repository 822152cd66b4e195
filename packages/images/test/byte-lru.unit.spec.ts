import { describe, expect, it } from "vitest";
import { ByteLru } from "../src/byte-lru.ts";

const sized = () => new ByteLru<string>(10, (v) => v.length);

describe("ByteLru", () => {
  it("evicts the least recently used entries once the byte budget is exceeded", () => {
    const lru = sized();
    lru.set("a", "xxxx");
    lru.set("b", "xxxx");
    expect(lru.get("a")).toBe("xxxx"); // a is now the most recent
    lru.set("c", "xxxx");
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("xxxx");
    expect(lru.get("c")).toBe("xxxx");
    expect(lru.bytes).toBe(8);
  });

  it("never holds a value larger than the whole budget", () => {
    const lru = sized();
    lru.set("a", "xx");
    lru.set("huge", "x".repeat(11));
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.get("a")).toBe("xx");
  });

  it("stores nothing with a budget of 0", () => {
    const lru = new ByteLru<string>(0, (v) => v.length);
    lru.set("a", "x");
    expect(lru.size).toBe(0);
  });
});
