import { describe, expect, it } from "vitest";
import { evolve, initialState, windowRemaining, type LedgerEvent } from "../src/index.ts";
import { expire, expired, given, grant, granted, reserve, reserved, run, settled, T0 } from "./decider-spec.ts";

// A request may run for 120 s, longer than the 60 s window: its open reservation keeps
// counting until it is settled or expires, however old it is.

const plenty = granted(100_000, T0 - 200_000);
const seconds = (ms: number) => Math.ceil(ms / 1_000);

describe("an open reservation counts in the window until it is settled or expires", () => {
  const running = [plenty, reserved("long", 50, T0 - 90_000)];

  it("still counts 90 s after it was reserved: a reserve that does not fit is refused", () => {
    expect(windowRemaining(given(running).state, "k1", "scoring", T0)).toBe(10);
    // It frees the moment its request settles, which cannot be foreseen: retry in 1 s.
    given(running)
      .when(reserve("r2", 20), T0)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 1, resetAt: seconds(T0 + 1_000), remaining: 10 });
    given(running).when(reserve("r2", 10), T0).then([reserved("r2", 10, T0)]);
  });

  it("once settled late, its used units have aged out already: the window frees at once", () => {
    const history = [...running, settled("long", 50, 30, T0 - 90_000, T0 - 1)];
    expect(windowRemaining(given(history).state, "k1", "scoring", T0)).toBe(60);
    given(history).when(reserve("r2", 60), T0).then([reserved("r2", 60, T0)]);
  });

  it("once settled with fewer units, those count at the reservation time and age out at reservedAt + 60 s", () => {
    // Reserved 40 s ago, settled 1 s ago with 20 of 50 used: the 20 age out at T0 + 20 s.
    const history = [plenty, reserved("r1", 50, T0 - 40_000), settled("r1", 50, 20, T0 - 40_000, T0 - 1_000)];
    expect(windowRemaining(given(history).state, "k1", "scoring", T0)).toBe(40);
    given(history)
      .when(reserve("r2", 41), T0 + 19_999)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 1, resetAt: seconds(T0 + 20_000), remaining: 40 });
    given(history)
      .when(reserve("r2", 41), T0)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 20, resetAt: seconds(T0 + 20_000), remaining: 40 });
    given(history).when(reserve("r2", 60), T0 + 20_000).then([reserved("r2", 60, T0 + 20_000)]);
  });

  it("once expired, frees at once", () => {
    const history = [...running, expired("long", 50, T0 - 90_000, T0 - 1)];
    expect(windowRemaining(given(history).state, "k1", "scoring", T0)).toBe(60);
    given(history).when(reserve("r2", 60), T0).then([reserved("r2", 60, T0)]);
  });

  it("predicts the age-out of an open reservation younger than the window, as for a settled one", () => {
    // Open for 10 s: it cannot free before T0 + 50 s whatever happens to it.
    given([plenty, reserved("young", 50, T0 - 10_000)])
      .when(reserve("r2", 20), T0)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 50, resetAt: seconds(T0 + 50_000), remaining: 10 });
  });

  it("frees entries in order of their earliest free time: an old open one first, then age-outs", () => {
    const history = [
      plenty,
      reserved("old-open", 30, T0 - 90_000),
      reserved("settled", 20, T0 - 30_000),
      settled("settled", 20, 20, T0 - 30_000, T0 - 29_000),
      reserved("young-open", 10, T0 - 10_000),
    ];
    // 60 counted. 25 more need 25 freed: the old open 30 may free at any moment (T0 + 1 s).
    given(history).when(reserve("x", 25), T0).thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 1, resetAt: seconds(T0 + 1_000), remaining: 0 });
    // 40 need 40: also the settled 20, which age out at T0 + 30 s.
    expect(given(history).when(reserve("x", 40), T0).decision).toMatchObject({ rejection: { retryAfter: 30, resetAt: seconds(T0 + 30_000) } });
    // 55 need 55: also the young open 10, at T0 + 50 s at the earliest.
    expect(given(history).when(reserve("x", 55), T0).decision).toMatchObject({ rejection: { retryAfter: 50, resetAt: seconds(T0 + 50_000) } });
  });

  it("survives pruning however long it runs, and is pruned once settled and aged out", () => {
    const history = [
      plenty,
      reserved("long", 60, T0),
      reserved("short", 1, T0 + 1_000, "k2"),
      settled("short", 1, 1, T0 + 1_000, T0 + 1_000, "k2"),
      // Event time moves on by more than the retention (65 s): the windows are pruned.
      granted(1, T0 + 130_000, "later"),
      granted(1, T0 + 200_000, "later-still"),
    ];
    const pruned = given(history).state;
    expect(pruned.windowsPrunedAt).toBe(T0 + 200_000);
    expect([...pruned.windows.keys()]).toEqual(["scoring:k1"]);
    expect(windowRemaining(pruned, "k1", "scoring", T0 + 200_000)).toBe(0);
    given(history)
      .when(reserve("r2", 1), T0 + 200_000)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 1, resetAt: seconds(T0 + 201_000), remaining: 0 });

    // Settled at last with 10 used: those aged out long ago, so the window is free at once.
    const settledLate = [...history, settled("long", 60, 10, T0, T0 + 201_000)];
    given(settledLate).when(reserve("r2", 60), T0 + 201_000).then([reserved("r2", 60, T0 + 201_000)]);
    // The next prune drops the settled entry and keeps the open r2.
    const later = given([...settledLate, reserved("r2", 60, T0 + 201_000), granted(1, T0 + 270_000, "much-later")]).state;
    expect(later.windows.get("scoring:k1")?.map((e) => e.reservationId)).toEqual(["r2"]);
  });

  it("is pruned on replay exactly as live, so a fresh replica decides the same", () => {
    const steps: Array<[ReturnType<typeof reserve>, number]> = [
      [reserve("long", 60), T0],
      [grant("later", 1), T0 + 130_000],
      [reserve("blocked", 1), T0 + 140_000],
      [expire("long"), T0 + 150_000],
      [reserve("after", 60), T0 + 150_000],
    ];
    const { state: live, decisions } = run(given([plenty]).state, steps);
    expect(decisions.map((d) => ("events" in d ? "events" : d.rejection.type))).toEqual(["events", "events", "RateLimited", "events", "events"]);
    const log = [plenty, ...decisions.flatMap((d) => ("events" in d ? d.events : []))];
    const replayed = (JSON.parse(JSON.stringify(log)) as LedgerEvent[]).reduce(evolve, initialState());
    expect(replayed).toEqual(live);
  });
});
