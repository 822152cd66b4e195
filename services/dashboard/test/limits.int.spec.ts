import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleLimitsRepository } from "@adrank/db/repositories";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { createDeviceTokens } from "../src/device-token.ts";
import { createLimitCounters } from "../src/limit-counters.ts";
import { createSignInLimiter } from "../src/sign-in-limiter.ts";
import { createSignUpLimiter } from "../src/sign-up-limiter.ts";

// The limiters on a real Postgres schema, with a clock the test moves. Two sets of counters on
// one database stand for two console replicas.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("limits");
});
afterAll(async () => {
  await database?.destroy();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Two "replicas" sharing the database and a clock set to `at`. */
function replicas(startAt: number) {
  const clock = { at: startAt };
  const make = () => createLimitCounters(consoleLimitsRepository(database.db), { now: () => clock.at });
  return { clock, a: make(), b: make() };
}

describe("sign-in limiter in Postgres", () => {
  const limiterOn = (counters: ReturnType<typeof replicas>["a"], clock: { at: number }, limits: { maxFailures: number; maxFailuresPerEmail?: number }) =>
    createSignInLimiter(counters, { ...limits, windowMs: 15 * MINUTE }, createDeviceTokens("s".repeat(40), { maxAgeMs: 30 * 86_400_000, now: () => clock.at }));

  it("refuses an email from one address after its failures until the window ends, counting failures on either replica", async () => {
    const { clock, a, b } = replicas(Date.parse("2030-01-01T10:00:00Z"));
    const onA = limiterOn(a, clock, { maxFailures: 5 });
    const onB = limiterOn(b, clock, { maxFailures: 5 });
    for (let i = 0; i < 5; i++) {
      expect((await (i % 2 === 0 ? onA : onB).begin("Ada@x.io", "198.51.100.1")).ok).toBe(true);
      clock.at += 1_000;
    }
    // 5 s into the window: the window ends at 10:15.
    expect(await onB.begin("ada@x.io", "198.51.100.1")).toEqual({ ok: false, retryAfter: 15 * 60 - 5 });
    expect(await onA.begin("ada@x.io", "198.51.100.1")).toEqual({ ok: false, retryAfter: 15 * 60 - 5 });
    // Another address is another client: the owner is not locked out by these failures.
    expect((await onA.begin("ada@x.io", "198.51.100.2")).ok).toBe(true);
    clock.at = Date.parse("2030-01-01T10:15:00Z");
    expect((await onA.begin("ada@x.io", "198.51.100.1")).ok).toBe(true);
  });

  it("gives a right password's attempt back, and counts a known device's failures on the device alone", async () => {
    const { clock, a, b } = replicas(Date.parse("2030-01-02T10:00:00Z"));
    const onA = limiterOn(a, clock, { maxFailures: 2 });
    const onB = limiterOn(b, clock, { maxFailures: 2 });
    expect((await onA.begin("grace@x.io", "192.0.2.5")).ok).toBe(true); // a failure
    const right = await onB.begin("grace@x.io", "192.0.2.5");
    if (!right.ok) throw new Error("refused");
    const device = await onB.succeed(right.attempt);
    // The pair holds 1 failure of 2: one more fits, then the address's unknown clients wait.
    expect((await onA.begin("grace@x.io", "192.0.2.5")).ok).toBe(true);
    expect((await onA.begin("grace@x.io", "192.0.2.5")).ok).toBe(false);
    // The browser that signed in counts on its own token, on either replica; a success clears it.
    expect(await onA.begin("grace@x.io", "192.0.2.5", device)).toMatchObject({ ok: true, attempt: { device: expect.any(String) } });
    const withDevice = await onB.begin("grace@x.io", "192.0.2.5", device);
    if (!withDevice.ok) throw new Error("refused");
    await onB.succeed(withDevice.attempt);
    expect((await onA.begin("grace@x.io", "192.0.2.5", device)).ok).toBe(true);
    expect((await onB.begin("grace@x.io", "192.0.2.5", device)).ok).toBe(true);
    // Two failures on the token: it is trusted no more, and this address's unknown clients are full.
    expect((await onA.begin("grace@x.io", "192.0.2.5", device)).ok).toBe(false);
    expect(await onA.begin("grace@x.io", "192.0.2.77", device)).toMatchObject({ ok: true, attempt: { device: null } });
  });

  it("trusts a device token only for its own email, under its own secret and within its age", async () => {
    const { clock, a } = replicas(Date.parse("2030-01-05T10:00:00Z"));
    const limiter = limiterOn(a, clock, { maxFailures: 1 });
    const token = limiter.rememberDevice("Owner@x.io");
    const other = createSignInLimiter(a, { maxFailures: 1, windowMs: 15 * MINUTE }, createDeviceTokens("t".repeat(40), { maxAgeMs: 30 * 86_400_000, now: () => clock.at }));
    expect(await limiter.begin("owner@x.io", "203.0.113.50", token)).toMatchObject({ ok: true, attempt: { device: expect.any(String) } });
    expect(await limiter.begin("someone-else@x.io", "203.0.113.50", token)).toMatchObject({ ok: true, attempt: { device: null } });
    expect(await other.begin("owner@x.io", "203.0.113.51", token)).toMatchObject({ ok: true, attempt: { device: null } });
    expect(await limiter.begin("owner@x.io", "203.0.113.52", `${token}x`)).toMatchObject({ ok: true, attempt: { device: null } });
    clock.at += 31 * 86_400_000;
    expect(await limiter.begin("owner@x.io", "203.0.113.53", token)).toMatchObject({ ok: true, attempt: { device: null } });
  });

  it("gives an address four times an email's room, and a refused attempt counts nowhere", async () => {
    const { clock, a } = replicas(Date.parse("2030-01-03T10:00:00Z"));
    const limiter = limiterOn(a, clock, { maxFailures: 2 });
    expect((await limiter.begin("one@x.io", "2001:db8:7:7::1")).ok).toBe(true);
    expect((await limiter.begin("one@x.io", "2001:db8:7:7::1")).ok).toBe(true);
    // one@ is full from this address: these refusals must not use up the address.
    for (let i = 0; i < 10; i++) expect((await limiter.begin("one@x.io", "2001:db8:7:7::1")).ok).toBe(false);
    // Another address of the same /64 is the same subscriber.
    for (let i = 0; i < 6; i++) expect((await limiter.begin(`user${i}@x.io`, `2001:db8:7:7::${i + 2}`)).ok).toBe(true);
    expect((await limiter.begin("fresh@x.io", "2001:db8:7:7:ffff::1")).ok).toBe(false);
    expect((await limiter.begin("fresh@x.io", "2001:db8:7:8::1")).ok).toBe(true);
  });

  it("stops guessing spread over many addresses at the per-email limit, without stopping the email's known device", async () => {
    const { clock, a, b } = replicas(Date.parse("2030-01-04T10:00:00Z"));
    const onA = limiterOn(a, clock, { maxFailures: 5, maxFailuresPerEmail: 12 });
    const onB = limiterOn(b, clock, { maxFailures: 5, maxFailuresPerEmail: 12 });
    const device = onA.rememberDevice("target@x.io");
    const verdicts = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? onA : onB).begin("target@x.io", `203.0.113.${i}`)));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(12);
    expect((await onB.begin("target@x.io", "198.51.100.200")).ok).toBe(false);
    expect(await onB.begin("target@x.io", "198.51.100.200", device)).toMatchObject({ ok: true, attempt: { device: expect.any(String) } });
  });
});

describe("sign-up limiter in Postgres", () => {
  it("holds the per-address limit across replicas and answers how long until the window ends", async () => {
    const { clock, a, b } = replicas(Date.parse("2030-02-01T10:20:00Z"));
    const limits = { perAddress: 3, global: 100, windowMs: HOUR };
    const onA = createSignUpLimiter(a, limits);
    const onB = createSignUpLimiter(b, limits);
    for (let i = 0; i < 3; i++) expect(await (i % 2 ? onB : onA).take("198.51.100.77")).toEqual({ ok: true });
    expect(await onA.take("198.51.100.77")).toEqual({ ok: false, reason: "address", retryAfter: 40 * 60 });
    expect(await onB.take("198.51.100.77")).toEqual({ ok: false, reason: "address", retryAfter: 40 * 60 });
    expect(await onB.take("198.51.100.78")).toEqual({ ok: true });
    clock.at = Date.parse("2030-02-01T11:00:00Z");
    expect(await onA.take("198.51.100.77")).toEqual({ ok: true });
  });

  it("holds the global limit across addresses; an address-refused attempt does not use the global room", async () => {
    const { a, b } = replicas(Date.parse("2030-02-02T10:00:00Z"));
    const limits = { perAddress: 2, global: 5, windowMs: HOUR };
    const onA = createSignUpLimiter(a, limits);
    const onB = createSignUpLimiter(b, limits);
    expect((await onA.take("192.0.2.1")).ok).toBe(true);
    expect((await onB.take("192.0.2.1")).ok).toBe(true);
    for (let i = 0; i < 20; i++) expect(await onA.take("192.0.2.1")).toMatchObject({ ok: false, reason: "address" });
    for (let i = 2; i < 5; i++) expect((await (i % 2 ? onA : onB).take(`192.0.2.${i}`)).ok).toBe(true);
    expect(await onB.take("192.0.2.99")).toMatchObject({ ok: false, reason: "global" });
    // The refused attempt gave its address count back: 192.0.2.99 is not held against later.
    const rows = await database.db.selectFrom("dashboard_limit_counters").select(["key", "count"]).where("window_start", "=", new Date("2030-02-02T10:00:00Z")).execute();
    expect(rows.find((r) => r.key === "signup:all")?.count).toBe(5);
    expect(rows.filter((r) => r.key.startsWith("signup:address:")).map((r) => r.count).sort()).toEqual([0, 1, 1, 1, 2]);
  });

  it("admits exactly the limit when many replicas race for the last places", async () => {
    const { a, b } = replicas(Date.parse("2030-02-03T10:00:00Z"));
    const limits = { perAddress: 1_000, global: 7, windowMs: HOUR };
    const verdicts = await Promise.all(Array.from({ length: 40 }, (_, i) => createSignUpLimiter(i % 2 ? a : b, limits).take(`203.0.113.${i}`)));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(7);
  });
});

describe("limit counters", () => {
  it("prunes windows that have ended, and keeps the current ones", async () => {
    const clock = { at: Date.parse("2030-03-01T10:00:00Z") };
    const counters = createLimitCounters(consoleLimitsRepository(database.db), { now: () => clock.at, pruneEveryMs: HOUR });
    await counters.take([{ scope: "test:prune", subject: "old", limit: 10, windowMs: 15 * MINUTE }]);
    await counters.take([{ scope: "test:prune", subject: "long", limit: 10, windowMs: 2 * HOUR }]);
    clock.at += 20 * MINUTE;
    expect(await counters.prune()).toBeGreaterThanOrEqual(1);
    const left = await database.db.selectFrom("dashboard_limit_counters").select("key").where("key", "like", "test:prune:%").execute();
    expect(left).toHaveLength(1);
    // take() prunes by itself once pruneEveryMs has passed.
    clock.at += 3 * HOUR;
    await counters.take([{ scope: "test:other", subject: "x", limit: 10, windowMs: MINUTE }]);
    expect(await database.db.selectFrom("dashboard_limit_counters").select("key").where("key", "like", "test:prune:%").execute()).toEqual([]);
  });
});
