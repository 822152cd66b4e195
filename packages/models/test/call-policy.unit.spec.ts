import { describe, expect, it } from "vitest";
import { createCallPolicy, createConcurrencyLimiter, fullJitterDelayMs, isModelError, ModelError, modelErrorFromHttpFailure, realSleep, retryAfterMs } from "../src/index.ts";

const target = { provider: "openai", model: "gpt-test" };
const headers = (h: Record<string, string>) => new Headers(h);
const httpError = (status: number, retryAfter?: number) => modelErrorFromHttpFailure(target, { status, retryAfterMs: retryAfter, cause: new Error("x") });
const classify = (err: unknown) => (isModelError(err) ? err : httpError(500));

describe("retryAfterMs", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");
  it("reads delta seconds, HTTP-dates and retry-after-ms, preferring the millisecond header", () => {
    expect(retryAfterMs(headers({ "retry-after": "3" }), now)).toBe(3_000);
    expect(retryAfterMs(headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(retryAfterMs(headers({ "retry-after": "Sun, 01 Jun 2025 12:00:07 GMT" }), now)).toBe(7_000);
    expect(retryAfterMs(headers({ "retry-after": "2", "retry-after-ms": "150" }), now)).toBe(150);
  });
  it("treats a past date as no wait and garbage or absence as unknown", () => {
    expect(retryAfterMs(headers({ "retry-after": "Sun, 01 Jun 2025 11:59:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe("fullJitterDelayMs", () => {
  it("draws within a window that doubles per retry up to the cap", () => {
    expect(fullJitterDelayMs(0, 500, 20_000, () => 0.999)).toBe(499);
    expect(fullJitterDelayMs(3, 500, 20_000, () => 0.5)).toBe(2_000);
    expect(fullJitterDelayMs(10, 500, 20_000, () => 0.5)).toBe(10_000);
    expect(fullJitterDelayMs(2, 500, 20_000, () => 0)).toBe(0);
  });
});

describe("createConcurrencyLimiter", () => {
  it("queues beyond the limit, serves first come first served, and drops a waiter whose signal aborts", async () => {
    const limiter = createConcurrencyLimiter(1);
    const release = await limiter.acquire();
    const order: string[] = [];
    const controller = new AbortController();
    const a = limiter.acquire(controller.signal).then(() => order.push("a"), () => order.push("a aborted"));
    const b = limiter.acquire().then((r) => {
      order.push("b");
      r();
    });
    expect(limiter.waiting).toBe(2);
    controller.abort();
    await a;
    release();
    await b;
    expect(order).toEqual(["a aborted", "b"]);
    expect(limiter.active).toBe(0);
  });
});

describe("createCallPolicy", () => {
  it("does not retry what is not retryable", async () => {
    let calls = 0;
    const policy = createCallPolicy({ sleep: async () => {} });
    const err = await policy.run(target, undefined, async () => {
      calls++;
      throw httpError(401);
    }, classify).catch((e: unknown) => e);
    expect(isModelError(err) && err.kind).toBe("misconfigured");
    expect(calls).toBe(1);
  });

  it("does not wait when the provider asks for longer than maxRetryAfterMs, and passes the wait on", async () => {
    const waits: number[] = [];
    const policy = createCallPolicy({ maxRetryAfterMs: 10_000, sleep: async (ms) => void waits.push(ms) });
    const err = await policy.run(target, undefined, async () => {
      throw httpError(429, 120_000);
    }, classify).catch((e: unknown) => e);
    expect(isModelError(err) && { kind: err.kind, retryAfterMs: err.retryAfterMs }).toEqual({ kind: "rate_limited", retryAfterMs: 120_000 });
    expect(waits).toEqual([]);
  });

  it("cancels a backoff sleep as soon as the caller's signal aborts", async () => {
    const controller = new AbortController();
    const policy = createCallPolicy({ sleep: realSleep, baseDelayMs: 60_000, maxDelayMs: 60_000, random: () => 0.99 });
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const err = await policy.run(target, controller.signal, async () => {
      throw httpError(503);
    }, classify).catch((e: unknown) => e);
    expect(isModelError(err) && err.kind).toBe("aborted");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("reports each retry with its delay, and never runs an attempt after the caller aborted", async () => {
    const events: number[] = [];
    const controller = new AbortController();
    let calls = 0;
    const policy = createCallPolicy({
      random: () => 0.5,
      sleep: async () => {
        if (events.length === 2) controller.abort();
      },
      onRetry: (e) => events.push(e.delayMs),
    });
    const err = await policy.run(target, controller.signal, async () => {
      calls++;
      throw httpError(500);
    }, classify).catch((e: unknown) => e);
    expect(events).toEqual([250, 500]);
    expect(calls).toBe(2);
    expect(isModelError(err) && err.kind).toBe("aborted");
  });

  it("keeps messages free of secrets and serializes without the cause", () => {
    const err = new ModelError({ ...target, kind: "misconfigured", message: "openai rejected our credentials", cause: new Error("Bearer sk-secret") });
    expect(JSON.stringify(err)).not.toContain("sk-secret");
    expect(err.cause).toBeInstanceOf(Error);
  });
});
