import { describe, expect, it } from "vitest";
import { closedSize, openReservationsOlderThan, RATE_LIMITS, windowRemaining, type LedgerEvent } from "../src/index.ts";
import { expire, given, grant, granted, reserve, reserved, run, settle, settled, T0 } from "./decider-spec.ts";

const plenty = granted(100_000, T0 - 100_000);
/** `n` one-unit scoring reservations by key k1, one per `step` ms from `start`. */
const ones = (n: number, start: number, step = 10, keyId = "k1", kind: "scoring" | "pairwise" = "scoring"): LedgerEvent[] =>
  Array.from({ length: n }, (_, i) => reserved(`${kind}-${keyId}-${start}-${i}`, 1, start + i * step, keyId, kind));

describe("rate window: 60 units per key and kind in any trailing 60 s", () => {
  it("admits the 60th unit and refuses the 61st with retryAfter and resetAt", () => {
    const history = [plenty, ...ones(59, T0)];
    const now = T0 + 10_000;
    const state = given(history).when(reserve("r60", 1), now).then([reserved("r60", 1, now)]);
    expect(windowRemaining(state, "k1", "scoring", now)).toBe(0);

    const later = now + 1;
    given([...history, reserved("r60", 1, now)])
      .when(reserve("r61", 1), later)
      // The oldest unit (at T0) ages out at T0 + 60 s: 49.999 s from now, i.e. 50 whole seconds.
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 50, resetAt: Math.ceil((T0 + 60_000) / 1_000), remaining: 0 });
  });

  it("lets a settled unit age out at exactly 60 s after its reservation, not a millisecond earlier", () => {
    const history = [plenty, reserved("big", 60, T0), settled("big", 60, 60, T0, T0 + 1_000)];
    given(history)
      .when(reserve("r2", 1), T0 + 59_999)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 1, resetAt: Math.ceil((T0 + 60_000) / 1_000), remaining: 0 });
    given(history).when(reserve("r2", 1), T0 + 60_000).then([reserved("r2", 1, T0 + 60_000)]);
  });

  it("waits for enough units to age out for the whole request", () => {
    const history = [plenty, reserved("a", 30, T0), reserved("b", 20, T0 + 20_000)];
    // 50 counted; 25 more need 15 freed: "a" must age out (T0 + 60 s), "b" alone would not do.
    const { decision } = given(history).when(reserve("c", 25), T0 + 30_000);
    expect(decision).toEqual({ rejection: { type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 30, resetAt: (T0 + 60_000) / 1_000, remaining: 10 } });
    // 35 more need 25 freed: a (30) suffices as well.
    expect(given(history).when(reserve("c", 35), T0 + 30_000).decision).toMatchObject({ rejection: { retryAfter: 30 } });
    // 45 more need 35 freed: both must go, the second at T0 + 80 s.
    expect(given(history).when(reserve("c", 45), T0 + 30_000).decision).toMatchObject({ rejection: { retryAfter: 50, resetAt: (T0 + 80_000) / 1_000 } });
    given(history).when(reserve("c", 10), T0 + 30_000).then([reserved("c", 10, T0 + 30_000)]);
  });

  it("rounds retryAfter and resetAt up to whole seconds, never below 1 s", () => {
    const at = T0 + 123; // not on a second boundary
    const history = [plenty, reserved("big", 60, at), settled("big", 60, 60, at, at + 1_000)];
    const { decision } = given(history).when(reserve("x", 1), at + 59_950);
    expect(decision).toEqual({ rejection: { type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 1, resetAt: Math.ceil((at + 60_000) / 1_000), remaining: 0 } });
    const early = given(history).when(reserve("x", 1), at + 1_500).decision;
    expect(early).toMatchObject({ rejection: { retryAfter: 59 } });
  });

  it("counts a settled reservation with its used units only", () => {
    const history = [plenty, reserved("r1", 40, T0), reserved("r2", 20, T0 + 1_000)];
    given(history).when(reserve("r3", 5), T0 + 2_000).thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 58, resetAt: (T0 + 60_000) / 1_000, remaining: 0 });
    const state = given([...history, settled("r1", 40, 10, T0, T0 + 1_500)]).state;
    expect(windowRemaining(state, "k1", "scoring", T0 + 2_000)).toBe(30);
    given([...history, settled("r1", 40, 10, T0, T0 + 1_500)]).when(reserve("r3", 30), T0 + 2_000).then([reserved("r3", 30, T0 + 2_000)]);
  });

  it("counts an expired reservation as nothing once it has expired", () => {
    const { state } = run(given([plenty]).state, [
      [reserve("r1", 60), T0],
      [expire("r1"), T0 + 5_000],
    ]);
    expect(windowRemaining(state, "k1", "scoring", T0 + 5_000)).toBe(60);
  });

  it("keeps a separate window for pairwise panels", () => {
    const history = [plenty, reserved("s", 60, T0)];
    given(history).when(reserve("p", 60, "k1", "pairwise"), T0 + 1).then([reserved("p", 60, T0 + 1, "k1", "pairwise")]);
    const state = given([...history, reserved("p", 60, T0 + 1, "k1", "pairwise")]).state;
    expect(given([...history, reserved("p", 60, T0 + 1, "k1", "pairwise")]).when(reserve("p2", 1, "k1", "pairwise"), T0 + 2).decision).toMatchObject({
      rejection: { type: "RateLimited", kind: "pairwise" },
    });
    expect(windowRemaining(state, "k1", "scoring", T0 + 2)).toBe(0);
    expect(windowRemaining(state, "k1", "pairwise", T0 + 2)).toBe(0);
  });

  it("keeps a separate window per key of the same account", () => {
    const history = [plenty, reserved("a", 60, T0, "k1")];
    given(history).when(reserve("b", 60, "k2"), T0 + 1).then([reserved("b", 60, T0 + 1, "k2")]);
    expect(windowRemaining(given(history).state, "k2", "scoring", T0 + 1)).toBe(60);
  });

  it("never admits more than the limit over a minute of steady traffic", () => {
    // Each request settles its unit at once, so only the window's age-out holds them back.
    const steps: Array<[ReturnType<typeof reserve>, number]> = Array.from({ length: 300 }, (_, i): Array<[ReturnType<typeof reserve>, number]> => [
      [reserve(`r${i}`, 1), T0 + i * 500],
      [settle(`r${i}`, 1), T0 + i * 500],
    ]).flat();
    const { decisions } = run(given([plenty]).state, steps);
    const admittedAt = steps.filter(([c], i) => c.type === "ReserveUsage" && "events" in decisions[i]!).map(([, t]) => t);
    for (const t of admittedAt) expect(admittedAt.filter((u) => u > t - 60_000 && u <= t).length).toBeLessThanOrEqual(RATE_LIMITS.scoring);
    // Two requests a second for 150 s: the first 30 s fill the window, the next 30 s are
    // refused, then the units of 0-30 s age out one by one at 60-90 s, and so on.
    expect(admittedAt.length).toBe(180);
    expect(admittedAt.filter((t) => t >= T0 + 30_000 && t < T0 + 60_000)).toEqual([]);
  });
});

describe("state stays small", () => {
  it("drops settled window entries older than the window as time passes", () => {
    const { state } = run(given([plenty]).state, [
      ...Array.from({ length: 50 }, (_, i): Array<[ReturnType<typeof reserve>, number]> => [
        [reserve(`r${i}`, 1, `key${i}`), T0 + i],
        [settle(`r${i}`, 1), T0 + i + 1],
      ]).flat(),
      [grant("later", 1), T0 + 130_000],
    ]);
    expect(state.windows.size).toBe(0);
  });

  it("forgets closed reservations a day after they closed, and remembers recent ones", () => {
    const steps: Array<[ReturnType<typeof reserve>, number]> = [];
    // Settled with nothing used, so the account's unit window never fills; 200 a minute, under its request window.
    for (let i = 0; i < 600; i++) {
      steps.push([reserve(`old${i}`, 1, `k${i}`), T0 + i * 300], [settle(`old${i}`, 0), T0 + i * 300]);
    }
    const day = 24 * 60 * 60 * 1_000;
    steps.push([reserve("new", 1), T0 + day + 240_000], [settle("new", 1), T0 + day + 240_001]);
    const { state } = run(given([plenty]).state, steps);
    expect(closedSize(state.closed)).toBeLessThan(601);
    const after = (cmd: ReturnType<typeof settle>) => run(state, [[cmd, T0 + day + 250_000]]).decisions[0];
    expect(after(settle("old0", 1))).toEqual({ rejection: { type: "UnknownReservation", reservationId: "old0" } });
    expect(after(settle("new", 1))).toEqual({ rejection: { type: "AlreadySettled", reservationId: "new", unitsUsed: 1 } });
  });
});

describe("openReservationsOlderThan", () => {
  it("lists open reservations at least the given age, oldest first", () => {
    const state = given([plenty, reserved("a", 1, T0), reserved("b", 1, T0 + 1_000), reserved("c", 1, T0 + 2_000), settled("a", 1, 1, T0, T0 + 10)]).state;
    const due = openReservationsOlderThan(state, T0 + 301_000, 300_000);
    expect(due.map((r) => r.reservationId)).toEqual(["b"]);
    expect(openReservationsOlderThan(state, T0 + 400_000, 300_000).map((r) => r.reservationId)).toEqual(["b", "c"]);
  });
});
