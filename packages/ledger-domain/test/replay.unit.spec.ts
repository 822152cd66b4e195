import { describe, expect, it } from "vitest";
import {
  ACCOUNT_RATE_LIMITS,
  balanceOf,
  decide,
  evolve,
  initialState,
  RATE_LIMITS,
  windowRemaining,
  type Decision,
  type LedgerCommand,
  type LedgerEvent,
  type RateWindow,
  type RejectionType,
  type UsageKind,
} from "../src/index.ts";
import { T0 } from "./decider-spec.ts";

/** mulberry32: a small seeded generator, so a failing sequence can be replayed exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomCommands(seed: number, count: number, keys: readonly string[]): Array<[LedgerCommand, number]> {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const kinds: UsageKind[] = ["scoring", "pairwise"];
  const ids: string[] = [];
  const steps: Array<[LedgerCommand, number]> = [];
  let now = T0;
  for (let i = 0; i < count; i++) {
    now += Math.floor((rnd() * 1_800) / keys.length);
    const r = rnd();
    let command: LedgerCommand;
    if (r < 0.04) command = { type: "GrantCredits", grantId: rnd() < 0.2 ? "g-repeat" : `g${i}`, credits: 1 + Math.floor(rnd() * 90) };
    else if (r < 0.5 || ids.length === 0) {
      const id = rnd() < 0.03 && ids.length ? pick(ids) : `r${i}`;
      ids.push(id);
      command = { type: "ReserveUsage", reservationId: id, keyId: pick(keys), kind: pick(kinds), units: 1 + Math.floor(rnd() * 12) };
    } else if (r < 0.9) command = { type: "SettleUsage", reservationId: rnd() < 0.05 ? "never-reserved" : pick(ids), unitsUsed: Math.floor(rnd() * 10) };
    else command = { type: "ExpireReservation", reservationId: pick(ids) };
    steps.push([command, now]);
  }
  return steps;
}

/**
 * An independent, naive reading of the rules straight from the event list: a reservation
 * made by t weighs its reserved units while it is open at t, whatever its age; once settled
 * at or before t its used units, until 60 s after it was reserved; once expired, nothing.
 * Without a key: the account's window, every key's reservations together.
 */
function countedAt(events: LedgerEvent[], keyId: string | undefined, kind: UsageKind, t: number): number {
  const weight = new Map<string, { units: number; at: number; open: boolean }>();
  for (const e of events) {
    if (e.at > t) break;
    if (e.type === "UsageReserved" && (keyId === undefined || e.keyId === keyId) && e.kind === kind) weight.set(e.reservationId, { units: e.units, at: e.at, open: true });
    if (e.type === "UsageSettled" && weight.has(e.reservationId)) weight.set(e.reservationId, { units: e.unitsUsed, at: e.reservedAt, open: false });
    if (e.type === "ReservationExpired") weight.delete(e.reservationId);
  }
  return [...weight.values()].reduce((n, w) => n + (w.open || w.at > t - 60_000 ? w.units : 0), 0);
}

describe("replay", () => {
  // Three keys cannot fill the account window (3 x 60); eight keys, about as busy in total, do.
  it.each([
    [1, 3],
    [7, 3],
    [2026, 3],
    [5, 8],
    [31, 8],
  ])("folding the emitted events gives the live state (seed %i, %i keys)", (seed, keyCount) => {
    const keys = Array.from({ length: keyCount }, (_, i) => `k${i + 1}`);
    const steps = randomCommands(seed, 3_000, keys);
    let live = initialState();
    const log: LedgerEvent[] = [];
    const outcomes = new Map<RejectionType | "events", number>();
    const refusedBy = new Map<RateWindow, number>();
    for (const [command, now] of steps) {
      const d: Decision = decide(command, live, now);
      const key = "events" in d ? "events" : d.rejection.type;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      if ("rejection" in d && d.rejection.type === "RateLimited") refusedBy.set(d.rejection.window, (refusedBy.get(d.rejection.window) ?? 0) + 1);
      if ("events" in d) {
        for (const e of d.events) {
          live = evolve(live, e);
          log.push(e);
        }
        expect(balanceOf(live).available).toBeGreaterThanOrEqual(0);
      }
    }

    // Events cross the stream as JSON: replay what a fresh replica would read.
    const replayed = (JSON.parse(JSON.stringify(log)) as LedgerEvent[]).reduce(evolve, initialState());
    expect(replayed).toEqual(live);

    // The sequence exercised the interesting paths, so the comparison means something.
    for (const t of ["events", "InsufficientCredits", "RateLimited", "AlreadySettled", "UnknownReservation", "ReservationAlreadyExpired", "DuplicateReservation"] as const) {
      expect(outcomes.get(t) ?? 0, t).toBeGreaterThan(0);
    }

    // The windows, the key's and the account's, held at every admission, read independently from the events.
    for (const e of log) {
      if (e.type !== "UsageReserved") continue;
      expect(countedAt(log, e.keyId, e.kind, e.at)).toBeLessThanOrEqual(RATE_LIMITS[e.kind]);
      expect(countedAt(log, undefined, e.kind, e.at)).toBeLessThanOrEqual(ACCOUNT_RATE_LIMITS[e.kind]);
    }
    // Reservations outlived the window while open, so the rule for them was exercised.
    expect(log.some((e) => e.type !== "CreditsGranted" && e.type !== "UsageReserved" && e.at - e.reservedAt > 60_000)).toBe(true);
    // The remaining units reported (X-RateLimit-Remaining) agree with the same reading.
    const end = log.at(-1)!.at;
    for (const keyId of keys) {
      for (const kind of ["scoring", "pairwise"] as const) {
        for (const t of [end, end + 30_000, end + 61_000]) {
          const room = Math.min(RATE_LIMITS[kind] - countedAt(log, keyId, kind, t), ACCOUNT_RATE_LIMITS[kind] - countedAt(log, undefined, kind, t));
          expect(windowRemaining(live, keyId, kind, t), `${keyId} ${kind} ${t}`).toBe(Math.max(0, room));
        }
      }
    }
    // The window that could fill was the one that refused: the keys' with three, the account's with eight.
    expect(refusedBy.get(keyCount > 3 ? "account" : "key") ?? 0).toBeGreaterThan(0);

    // Balance read independently from the events.
    const granted = log.reduce((n, e) => n + (e.type === "CreditsGranted" ? e.credits : 0), 0);
    const used = log.reduce((n, e) => n + (e.type === "UsageSettled" ? e.unitsUsed : 0), 0);
    expect(balanceOf(live)).toMatchObject({ granted, used });
  });
});
