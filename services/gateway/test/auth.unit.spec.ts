import { describe, expect, it } from "vitest";
import { issueKey } from "@adrank/api-keys";
import { createAuthenticator, type StoredKey } from "../src/auth/authenticator.ts";
import { createLastUsedRecorder } from "../src/auth/last-used.ts";
import { createTtlCache } from "../src/auth/ttl-cache.ts";
import { UnauthenticatedError } from "../src/errors/api-errors.ts";

const bytes = (seed: number) => Uint8Array.from({ length: 41 }, (_, i) => (seed * 29 + i * 11) & 0xff);

function fixture() {
  let t = 1_000_000;
  const key = issueKey(bytes(1));
  const rows = new Map<string, StoredKey>([[key.lookup, { id: "key_1", accountId: "acct_1", hash: key.hash, revoked: false }]]);
  let queries = 0;
  const used: string[] = [];
  const auth = createAuthenticator({
    findByLookup: async (lookup) => {
      queries++;
      const row = rows.get(lookup);
      return row ? { ...row } : null;
    },
    ttlMs: 5_000,
    now: () => t,
    onAuthenticated: (c) => used.push(c.keyId),
  });
  return { auth, key, rows, used, queries: () => queries, advance: (ms: number) => (t += ms) };
}

describe("createAuthenticator", () => {
  it("accepts a stored key and names its account and key", async () => {
    const f = fixture();
    await expect(f.auth.authenticate(`Bearer ${f.key.raw}`)).resolves.toEqual({ accountId: "acct_1", keyId: "key_1" });
    expect(f.used).toEqual(["key_1"]);
  });

  it.each([
    ["no header", undefined],
    ["another scheme", "Basic abc"],
    ["a token that is not one of our keys", "Bearer sk_live_123"],
    ["an unknown key", `Bearer ${issueKey(bytes(9)).raw}`],
  ])("refuses %s with the same error", async (_what, header) => {
    const f = fixture();
    await expect(f.auth.authenticate(header)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("refuses the right look-up handle with the wrong secret", async () => {
    const f = fixture();
    const forged = f.key.lookup + "A".repeat(43);
    await expect(f.auth.authenticate(`Bearer ${forged}`)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("caches look-ups, misses included, for the TTL only", async () => {
    const f = fixture();
    const unknown = `Bearer ${issueKey(bytes(7)).raw}`;
    await f.auth.authenticate(`Bearer ${f.key.raw}`);
    await f.auth.authenticate(`Bearer ${f.key.raw}`);
    await expect(f.auth.authenticate(unknown)).rejects.toThrow();
    await expect(f.auth.authenticate(unknown)).rejects.toThrow();
    expect(f.queries()).toBe(2);
    f.advance(5_000);
    await f.auth.authenticate(`Bearer ${f.key.raw}`);
    expect(f.queries()).toBe(3);
  });

  it("stops accepting a revoked key once the cached look-up expires", async () => {
    const f = fixture();
    await f.auth.authenticate(`Bearer ${f.key.raw}`);
    f.rows.get(f.key.lookup)!.revoked = true;
    f.advance(4_999);
    await expect(f.auth.authenticate(`Bearer ${f.key.raw}`)).resolves.toBeTruthy();
    f.advance(1);
    await expect(f.auth.authenticate(`Bearer ${f.key.raw}`)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("shares one query between concurrent first requests", async () => {
    const f = fixture();
    await Promise.all([1, 2, 3].map(() => f.auth.authenticate(`Bearer ${f.key.raw}`)));
    expect(f.queries()).toBe(1);
  });
});

describe("createTtlCache", () => {
  it("forgets the oldest entries beyond its size", () => {
    const cache = createTtlCache<number>({ ttlMs: 1_000, maxEntries: 2, now: () => 0 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")).toEqual({ value: 3 });
    expect(cache.size()).toBe(2);
  });

  it("keeps nothing with a zero TTL", () => {
    const cache = createTtlCache<number>({ ttlMs: 0, maxEntries: 2, now: () => 0 });
    cache.set("a", 1);
    expect(cache.get("a")).toBeUndefined();
  });
});

describe("createLastUsedRecorder", () => {
  it("writes at most once a minute per key", async () => {
    let t = 0;
    const writes: Array<[string, number]> = [];
    const recorder = createLastUsedRecorder({ write: async (k, at) => void writes.push([k, at.getTime()]), now: () => t, onError: () => {} });
    recorder.record("k1");
    recorder.record("k1");
    recorder.record("k2");
    t = 59_999;
    recorder.record("k1");
    t = 60_000;
    recorder.record("k1");
    expect(writes).toEqual([
      ["k1", 0],
      ["k2", 0],
      ["k1", 60_000],
    ]);
  });

  it("reports a failed write instead of throwing", async () => {
    const errors: string[] = [];
    const recorder = createLastUsedRecorder({ write: () => Promise.reject(new Error("db down")), now: () => 0, onError: (_e, k) => errors.push(k) });
    recorder.record("k1");
    await new Promise((r) => setTimeout(r, 0));
    expect(errors).toEqual(["k1"]);
  });
});
