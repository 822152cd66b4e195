import { describe, expect, it } from "vitest";
import { issueKey } from "@adrank/api-keys";
import { createAuthenticator, type StoredKey } from "../src/auth/authenticator.ts";
import { createAuthFailureLimiter } from "../src/auth/failure-limiter.ts";
import { TooManyFailedAuthenticationsError, UnauthenticatedError } from "../src/errors/api-errors.ts";
import { toHttpFailure } from "../src/errors/to-http.ts";

const bytes = (seed: number) => Uint8Array.from({ length: 41 }, (_, i) => (seed * 31 + i * 7) & 0xff);
const madeUp = (n: number) => `Bearer ${issueKey(bytes(1_000 + n)).raw}`;

function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("createAuthFailureLimiter", () => {
  it("refuses an address once it has `limit` failures in its window, for what is left of the window", () => {
    const c = clock();
    const limiter = createAuthFailureLimiter({ limit: 3, windowMs: 60_000, maxAddresses: 100, now: c.now });
    for (let i = 0; i < 3; i++) {
      expect(limiter.refusal("203.0.113.7")).toBeNull();
      limiter.recordFailure("203.0.113.7");
      c.advance(1_000);
    }
    // The window began at the first failure, 3 s ago: 57 s remain.
    expect(limiter.refusal("203.0.113.7")).toEqual({ retryAfter: 57, resetAt: Math.ceil((c.now() + 57_000) / 1000), limit: 3, windowSeconds: 60 });
    expect(limiter.refusal("198.51.100.9")).toBeNull();
    c.advance(56_500);
    expect(limiter.refusal("203.0.113.7")?.retryAfter).toBe(1);
    c.advance(500);
    expect(limiter.refusal("203.0.113.7")).toBeNull();
    // A new window starts with the next failure.
    limiter.recordFailure("203.0.113.7");
    expect(limiter.refusal("203.0.113.7")).toBeNull();
  });

  it("takes back a failure counted ahead of an accepted key", () => {
    const limiter = createAuthFailureLimiter({ limit: 1, windowMs: 60_000, maxAddresses: 100, now: clock().now });
    limiter.recordFailure("a");
    limiter.forgive("a");
    expect(limiter.refusal("a")).toBeNull();
    limiter.forgive("a");
    limiter.recordFailure("a");
    expect(limiter.refusal("a")).not.toBeNull();
  });

  it("keeps at most maxAddresses windows, dropping ended ones first, and never evicts a running one", () => {
    const c = clock();
    const limiter = createAuthFailureLimiter({ limit: 2, windowMs: 10_000, maxAddresses: 100, now: c.now });
    for (let i = 0; i < 100; i++) limiter.recordFailure(`10.0.0.${i}`);
    limiter.recordFailure("10.0.0.0");
    expect(limiter.size()).toBe(100);
    // 1,000 more addresses fail keys: the table stays at 100 and its blocked address stays blocked.
    for (let i = 0; i < 1_000; i++) limiter.recordFailure(`10.1.${i >> 8}.${i & 255}`);
    expect(limiter.size()).toBe(100);
    expect(limiter.refusal("10.0.0.0")).not.toBeNull();
    // Past the table, every other address shares one window: its 2 failures were used up above.
    expect(limiter.refusal("192.0.2.1")).not.toBeNull();
    expect(limiter.refusal("10.0.0.1")).toBeNull();
    // Once the windows end, the table empties as new failures come, and new addresses count on their own.
    c.advance(10_000);
    expect(limiter.refusal("192.0.2.1")).toBeNull();
    limiter.recordFailure("192.0.2.1");
    expect(limiter.size()).toBe(1);
  });

  it("stays within its table and takes constant time per check under 500,000 distinct failing addresses", () => {
    const c = clock();
    const limiter = createAuthFailureLimiter({ limit: 20, windowMs: 60_000, maxAddresses: 100_000, now: c.now });
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    for (let i = 0; i < 500_000; i++) {
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      if (!limiter.refusal(address)) limiter.recordFailure(address);
      // 500,000 failures over 150 s: the first windows end and make room again.
      if (i % 1_000 === 0) c.advance(300);
    }
    const ms = performance.now() - started;
    const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / (1024 * 1024);
    console.log(`500,000 failures from distinct addresses: ${Math.round(ms)} ms (${((ms * 1000) / 500_000).toFixed(2)} µs each), table ${limiter.size()} addresses, heap +${heapMiB.toFixed(1)} MiB`);
    expect(limiter.size()).toBeLessThanOrEqual(100_000);
    // A scan of the table per check would take milliseconds each.
    expect((ms * 1000) / 500_000).toBeLessThan(50);
  });
});

describe("the authenticator with a failure limit", () => {
  function fixture(limit = 5) {
    const c = clock();
    const key = issueKey(bytes(1));
    const rows = new Map<string, StoredKey>([[key.lookup, { id: "key_1", accountId: "acct_1", hash: key.hash, revoked: false }]]);
    let queries = 0;
    let release: () => void = () => {};
    let gate: Promise<void> | null = null;
    const auth = createAuthenticator({
      findByLookup: async (lookup) => {
        queries++;
        if (gate) await gate;
        return rows.get(lookup) ?? null;
      },
      ttlMs: 5_000,
      now: c.now,
      failures: createAuthFailureLimiter({ limit, windowMs: 60_000, maxAddresses: 1_000, now: c.now }),
    });
    const hold = () => {
      gate = new Promise((r) => (release = r));
    };
    return { auth, key: `Bearer ${key.raw}`, queries: () => queries, hold, release: () => release(), clock: c };
  }

  it("answers made-up keys with 401 up to the limit, then 429 before any look-up, for that address only", async () => {
    const f = fixture(5);
    for (let i = 0; i < 5; i++) await expect(f.auth.authenticate(madeUp(i), "203.0.113.7")).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(f.queries()).toBe(5);
    for (let i = 5; i < 200; i++) await expect(f.auth.authenticate(madeUp(i), "203.0.113.7")).rejects.toBeInstanceOf(TooManyFailedAuthenticationsError);
    // The 195 refusals cost no query, and neither does the right key from that address.
    await expect(f.auth.authenticate(f.key, "203.0.113.7")).rejects.toBeInstanceOf(TooManyFailedAuthenticationsError);
    expect(f.queries()).toBe(5);
    await expect(f.auth.authenticate(f.key, "198.51.100.9")).resolves.toEqual({ accountId: "acct_1", keyId: "key_1" });
    await expect(f.auth.authenticate(madeUp(999), "198.51.100.10")).rejects.toBeInstanceOf(UnauthenticatedError);
    f.clock.advance(60_000);
    await expect(f.auth.authenticate(f.key, "203.0.113.7")).resolves.toMatchObject({ keyId: "key_1" });
  });

  it("maps the refusal to 429 with Retry-After and the spec's retryAfter and resetAt", async () => {
    const f = fixture(1);
    await expect(f.auth.authenticate(madeUp(1), "a")).rejects.toThrow();
    const err = await f.auth.authenticate(madeUp(2), "a").catch((e: unknown) => e);
    const failure = toHttpFailure(err, "req-1", { bodyLimitBytes: 1 });
    expect(failure.status).toBe(429);
    expect(failure.headers).toEqual({ "Retry-After": "60" });
    expect(failure.body).toEqual({ error: expect.stringMatching(/^Too many requests with an invalid API key came from this address: 1 per 60 s are answered\. Retry after 60 s with a valid key\.$/), retryAfter: 60, resetAt: expect.any(Number) });
  });

  it("lets through at most `limit` look-ups of a burst of made-up keys sent at once", async () => {
    const f = fixture(5);
    f.hold();
    const burst = Array.from({ length: 100 }, (_, i) => f.auth.authenticate(madeUp(i), "203.0.113.7").catch((e: unknown) => e));
    f.release();
    const results = await Promise.all(burst);
    expect(f.queries()).toBe(5);
    expect(results.filter((e) => e instanceof UnauthenticatedError)).toHaveLength(5);
    expect(results.filter((e) => e instanceof TooManyFailedAuthenticationsError)).toHaveLength(95);
  });

  it("does not count the right key, even many requests with it at once on a cold cache", async () => {
    const f = fixture(2);
    f.hold();
    const burst = Array.from({ length: 50 }, () => f.auth.authenticate(f.key, "203.0.113.7"));
    f.release();
    await expect(Promise.all(burst)).resolves.toHaveLength(50);
    expect(f.queries()).toBe(1);
    await expect(f.auth.authenticate(madeUp(1), "203.0.113.7")).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(f.auth.authenticate(madeUp(2), "203.0.113.7")).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(f.auth.authenticate(f.key, "203.0.113.7")).rejects.toBeInstanceOf(TooManyFailedAuthenticationsError);
  });

  it("counts nothing for a header that is not a key at all (no look-up), nor for an unreachable store", async () => {
    const f = fixture(1);
    for (const header of [undefined, "Basic abc", "Bearer sk_live_123", `Bearer ${"x".repeat(8_000)}`]) {
      await expect(f.auth.authenticate(header, "a")).rejects.toBeInstanceOf(UnauthenticatedError);
    }
    expect(f.queries()).toBe(0);
    const down = createAuthenticator({
      findByLookup: async () => Promise.reject(new Error("connection refused")),
      ttlMs: 5_000,
      now: () => 0,
      failures: createAuthFailureLimiter({ limit: 1, windowMs: 60_000, maxAddresses: 10, now: () => 0 }),
    });
    for (let i = 0; i < 3; i++) await expect(down.authenticate(madeUp(i), "a")).rejects.toThrow("connection refused");
    await expect(f.auth.authenticate(f.key, "a")).resolves.toMatchObject({ keyId: "key_1" });
  });
});
