import { describe, expect, it } from "vitest";
import { LedgerUnavailableError, type LedgerResult } from "@adrank/ledger-client";
import type { SettleReply } from "@adrank/bus-contracts";
import { refusalOf, reserveUsage, settleUsage, type MeteringLedger, type SettleOrder, type SettlementOutbox } from "../src/lifecycle/metering.ts";
import { MeteringUnavailableError, RateLimitedError } from "../src/errors/api-errors.ts";

const lost = () => new LedgerUnavailableError("timeout", "ledger.settle", "the ledger did not answer in time");
const confirmed = (unitsUsed: number): LedgerResult<SettleReply> => ({ ok: true, value: { reservationId: "r1", creditsUsed: unitsUsed, balance: 97, windowRemaining: 57, alreadySettled: false } });
const quiet = { warn() {}, error() {} };

/** A ledger whose settle answers follow a script; `calls` records what the gateway sent. */
function scriptedLedger(answers: Array<LedgerResult<SettleReply> | Error>) {
  const calls: Array<{ reservationId: string; unitsUsed: number }> = [];
  const ledger: MeteringLedger = {
    reserve: () => Promise.reject(lost()),
    settle: (req) => {
      calls.push({ reservationId: req.reservationId, unitsUsed: req.unitsUsed });
      const next = answers.shift() ?? lost();
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  };
  return { ledger, calls };
}

/** An outbox that keeps what it was given, or fails as told. */
function memoryOutbox(opts: { broken?: boolean } = {}) {
  const recorded: SettleOrder[] = [];
  const finished: Array<{ reservationId: string; state: string }> = [];
  const outbox: SettlementOutbox = {
    record: async (order) => {
      if (opts.broken) throw new Error("postgres is down");
      recorded.push(order);
    },
    finish: async (reservationId, end) => void finished.push({ reservationId, state: end.state }),
  };
  return { outbox, recorded, finished };
}

const order = (unitsUsed: number): SettleOrder => ({ accountId: "a", reservationId: "r1", requestId: "q1", unitsUsed });

/** A clock that only moves when the code under test sleeps. */
function fakeTime(start = 1_000_000) {
  let t = start;
  const slept: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (slept.push(ms), (t += ms)), slept };
}

describe("settleUsage", () => {
  it("confirms at once without touching the outbox when the ledger answers", async () => {
    const { ledger } = scriptedLedger([confirmed(3)]);
    const box = memoryOutbox();
    const time = fakeTime();
    const settled = await settleUsage(ledger, order(3), quiet, { limitAt: time.now() + 120_000, ledgerTimeoutMs: 3_000, ...time }, box.outbox);
    expect(settled).toEqual({ status: "confirmed", unitsUsed: 3, creditsUsed: 3, balance: 97, windowRemaining: 57 });
    expect(box.recorded).toEqual([]);
  });

  it("records the settle durably at the first lost reply, asks again, and reports what the ledger confirms", async () => {
    const { ledger, calls } = scriptedLedger([lost(), lost(), confirmed(3)]);
    const box = memoryOutbox();
    const time = fakeTime();
    const settled = await settleUsage(ledger, order(3), quiet, { limitAt: time.now() + 120_000, ledgerTimeoutMs: 3_000, ...time }, box.outbox);
    expect(settled).toEqual({ status: "confirmed", unitsUsed: 3, creditsUsed: 3, balance: 97, windowRemaining: 57 });
    // The same reservation and units every time, so a repeat cannot charge twice.
    expect(calls).toEqual([0, 1, 2].map(() => ({ reservationId: "r1", unitsUsed: 3 })));
    expect(time.slept).toEqual([200, 400]);
    expect(box.recorded).toEqual([order(3)]);
    await Promise.resolve();
    expect(box.finished).toEqual([{ reservationId: "r1", state: "applied" }]);
  });

  it("answers pending with the units used, never 0, when the ledger stays silent, leaving the settle in the outbox", async () => {
    const { ledger, calls } = scriptedLedger([]);
    const box = memoryOutbox();
    const time = fakeTime();
    const started = time.now();
    const settled = await settleUsage(ledger, order(2), quiet, { limitAt: started + 120_000, ledgerTimeoutMs: 3_000, ...time }, box.outbox);
    expect(settled).toEqual({ status: "pending", unitsUsed: 2 });
    expect(box.recorded).toEqual([order(2)]);
    expect(box.finished).toEqual([]);
    expect(time.now() - started).toBeLessThanOrEqual(15_000);
    expect(time.now() - started).toBeGreaterThan(13_000);
    expect(Math.max(...time.slept)).toBe(1_000);
    expect(calls.length).toBeGreaterThan(10);
  });

  it("never starts an attempt that could end after the request's limit", async () => {
    const { ledger } = scriptedLedger([]);
    const time = fakeTime();
    const limitAt = time.now() + 8_000;
    await settleUsage(ledger, order(1), quiet, { limitAt, ledgerTimeoutMs: 3_000, ...time }, memoryOutbox().outbox);
    // The last attempt starts by limit - 2 round trips, so even a doubly timed-out one ends in time.
    expect(time.now()).toBeLessThanOrEqual(limitAt - 6_000);
  });

  it("reports a refusal as nothing charged, without retrying it", async () => {
    const refused = scriptedLedger([{ ok: false, rejection: { type: "UnknownReservation", reservationId: "r1" } } as LedgerResult<SettleReply>]);
    const time = fakeTime();
    const box = memoryOutbox();
    expect(await settleUsage(refused.ledger, order(1), quiet, { limitAt: time.now() + 60_000, ledgerTimeoutMs: 1_000, ...time }, box.outbox)).toEqual({
      status: "confirmed",
      unitsUsed: 1,
      creditsUsed: 0,
      balance: null,
      windowRemaining: null,
    });
    expect(refused.calls).toHaveLength(1);
    expect(box.recorded).toEqual([]);
  });

  it("treats an unreadable answer like a lost one: it may have been applied, so the settle is kept", async () => {
    const broken = scriptedLedger([new TypeError("bug"), confirmed(1)]);
    const time = fakeTime();
    const box = memoryOutbox();
    expect(await settleUsage(broken.ledger, order(1), quiet, { limitAt: time.now() + 60_000, ledgerTimeoutMs: 1_000, ...time }, box.outbox)).toMatchObject({ status: "confirmed", creditsUsed: 1 });
    expect(box.recorded).toHaveLength(1);
  });

  it("keeps asking the ledger in the background when even the outbox cannot take the settle", async () => {
    const { ledger, calls } = scriptedLedger([]);
    const time = fakeTime();
    const box = memoryOutbox({ broken: true });
    const settled = await settleUsage(ledger, order(2), quiet, { limitAt: time.now() + 5_000, ledgerTimeoutMs: 1_000, ...time }, box.outbox);
    expect(settled).toEqual({ status: "pending", unitsUsed: 2 });
    const before = calls.length;
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(calls.length).toBeGreaterThan(before);
  });
});

describe("reserveUsage", () => {
  it("releases a reservation whose answer was lost, so the caller's credits are not held until expiry", async () => {
    const { ledger, calls } = scriptedLedger([confirmed(0)]);
    await expect(reserveUsage(ledger, { kind: "scoring", accountId: "a", keyId: "k", reservationId: "r9", units: 4, fetches: 1 }, quiet)).rejects.toBeInstanceOf(MeteringUnavailableError);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([{ reservationId: "r9", unitsUsed: 0 }]);
  });

  it("does not release when nobody received the reservation", async () => {
    const { ledger, calls } = scriptedLedger([]);
    ledger.reserve = () => Promise.reject(new LedgerUnavailableError("no_responders", "ledger.reserve", "no ledger service answered"));
    await expect(reserveUsage(ledger, { kind: "scoring", accountId: "a", keyId: "k", reservationId: "r9", units: 4, fetches: 1 }, quiet)).rejects.toBeInstanceOf(MeteringUnavailableError);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([]);
  });
});

describe("refusalOf", () => {
  it("says when the account's request or image-fetch window refused, which count whatever the requests cost", () => {
    const requests = refusalOf({ type: "RateLimited", kind: "scoring", window: "requests", limit: 240, retryAfter: 12, resetAt: 1_900_000_012, remaining: 60 }, "scoring");
    const fetches = refusalOf({ type: "RateLimited", kind: "pairwise", window: "fetches", limit: 600, retryAfter: 3, resetAt: 1_900_000_003, remaining: 60 }, "pairwise");
    expect(requests.message).toBe("Rate limit reached: the keys of this account may together send 240 rank and pairwise requests per minute, whatever they cost (a request whose images all fail counts too). Retry after 12 s.");
    expect(fetches.message).toBe("Rate limit reached: the keys of this account may together send 600 image URLs per minute for us to fetch, whatever the requests cost. Retry after 3 s.");
    expect(fetches).toMatchObject({ retryAfter: 3, resetAt: 1_900_000_003 });
  });

  it("says which rate window refused: the key's or the account's (all its keys together)", () => {
    const key = refusalOf({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 7, resetAt: 1_900_000_007, remaining: 0 }, "scoring");
    const account = refusalOf({ type: "RateLimited", kind: "scoring", window: "account", limit: 180, retryAfter: 9, resetAt: 1_900_000_009, remaining: 3 }, "scoring");
    expect(key).toBeInstanceOf(RateLimitedError);
    expect(key.message).toBe("Rate limit reached: this key may use 60 scoring evaluations per minute. Retry after 7 s.");
    expect(account).toMatchObject({ retryAfter: 9, resetAt: 1_900_000_009, remaining: 3 });
    expect(account.message).toBe("Rate limit reached: the keys of this account may together use 180 scoring evaluations per minute. Retry after 9 s.");
  });
});
