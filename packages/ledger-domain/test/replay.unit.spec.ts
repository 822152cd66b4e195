import { describe, expect, it } from "vitest";
import { balanceOf, decide, evolve, initialState, RATE_LIMITS, type Decision, type LedgerCommand, type LedgerEvent, type RejectionType, type UsageKind } from "../src/index.ts";
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

function randomCommands(seed: number, count: number): Array<[LedgerCommand, number]> {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const keys = ["k1", "k2", "k3"];
  const kinds: UsageKind[] = ["scoring", "pairwise"];
  const ids: string[] = [];
  const steps: Array<[LedgerCommand, number]> = [];
  let now = T0;
  for (let i = 0; i < count; i++) {
    now += Math.floor(rnd() * 600);
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
 * An independent, naive reading of the rules straight from the event list: each
 * reservation's weight at time t is its reserved units until a close event at or before t,
 * then its used units (0 when expired).
 */
function countedAt(events: LedgerEvent[], keyId: string, kind: UsageKind, t: number): number {
  const weight = new Map<string, number>();
  for (const e of events) {
    if (e.at > t) break;
    if (e.type === "UsageReserved" && e.keyId === keyId && e.kind === kind && e.at > t - 60_000) weight.set(e.reservationId, e.units);
    if (e.type === "UsageSettled" && weight.has(e.reservationId)) weight.set(e.reservationId, e.unitsUsed);
    if (e.type === "ReservationExpired" && weight.has(e.reservationId)) weight.set(e.reservationId, 0);
  }
  return [...weight.values()].reduce((a, b) => a + b, 0);
}

describe("replay", () => {
  it.each([1, 7, 2026])("folding the emitted events gives the live state (seed %i)", (seed) => {
    const steps = randomCommands(seed, 3_000);
    let live = initialState();
    const log: LedgerEvent[] = [];
    const outcomes = new Map<RejectionType | "events", number>();
    for (const [command, now] of steps) {
      const d: Decision = decide(command, live, now);
      const key = "events" in d ? "events" : d.rejection.type;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
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

    // The windows held at every admission, read independently from the events.
    for (const e of log) {
      if (e.type === "UsageReserved") expect(countedAt(log, e.keyId, e.kind, e.at)).toBeLessThanOrEqual(RATE_LIMITS[e.kind]);
    }

    // Balance read independently from the events.
    const granted = log.reduce((n, e) => n + (e.type === "CreditsGranted" ? e.credits : 0), 0);
    const used = log.reduce((n, e) => n + (e.type === "UsageSettled" ? e.unitsUsed : 0), 0);
    expect(balanceOf(live)).toMatchObject({ granted, used });
  });
});
