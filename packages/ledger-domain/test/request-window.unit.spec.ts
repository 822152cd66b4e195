import { describe, expect, it } from "vitest";
import { ACCOUNT_RATE_LIMITS, ACCOUNT_REQUEST_LIMITS, decide, evolve, initialState, type Decision, type LedgerCommand, type LedgerEvent } from "../src/index.ts";
import { expire, given, grant, granted, reserve, reserved, run, settle, settled, T0 } from "./decider-spec.ts";

// The account's request and fetch windows count every reservation admitted, at its
// reservation time, whatever it is later settled for: a request whose assets all fail intake
// costs 0 units, yet made the gateway fetch its URLs.

const plenty = granted(100_000, T0 - 100_000);
const seconds = (ms: number) => Math.ceil(ms / 1_000);
type Step = [LedgerCommand, number];

/** `count` requests from T0, `spacing` ms apart, each settled for nothing 50 ms later. */
function settledForNothing(count: number, spacing: number, fetches?: number, keyOf: (i: number) => string = () => "k1"): Step[] {
  return Array.from({ length: count }, (_, i): Step[] => [
    [reserve(`r${i}`, 5, keyOf(i), "scoring", fetches), T0 + i * spacing],
    [settle(`r${i}`, 0), T0 + i * spacing + 50],
  ]).flat();
}

const admitted = (decisions: Decision[]) => decisions.every((d) => "events" in d);

describe("request window: requests per account, whatever they cost", () => {
  it("has the documented defaults", () => {
    expect(ACCOUNT_REQUEST_LIMITS).toEqual({ requests: 240, fetches: 600 });
  });

  it("admits 240 requests settled for nothing, refuses the 241st, and admits again once the first has aged out", () => {
    const { state, decisions } = run(given([plenty]).state, settledForNothing(240, 100));
    expect(admitted(decisions)).toBe(true);
    // The unit windows are empty (every request charged 0): only the request window refuses.
    expect(decide(reserve("next", 5), state, T0 + 24_000)).toEqual({
      rejection: { type: "RateLimited", kind: "scoring", window: "requests", limit: 240, retryAfter: 36, resetAt: seconds(T0 + 60_000), remaining: 60 },
    });
    // r0 (at T0) counts for [T0, T0 + 60 s): at T0 + 60 s there is room for one.
    const later = run(state, [
      [reserve("late1", 5), T0 + 60_000],
      [reserve("late2", 5), T0 + 60_000],
      [reserve("late3", 5), T0 + 60_100],
    ]);
    expect("events" in later.decisions[0]!).toBe(true);
    expect(later.decisions[1]).toEqual({
      rejection: { type: "RateLimited", kind: "scoring", window: "requests", limit: 240, retryAfter: 1, resetAt: seconds(T0 + 60_100), remaining: 55 },
    });
    expect("events" in later.decisions[2]!).toBe(true);
  });

  it("is the account's: requests of all its keys count together", () => {
    const { state, decisions } = run(given([plenty]).state, settledForNothing(240, 100, undefined, (i) => `k${i % 8}`));
    expect(admitted(decisions)).toBe(true);
    expect(decide(reserve("next", 1, "fresh"), state, T0 + 24_000)).toMatchObject({ rejection: { type: "RateLimited", window: "requests", limit: 240, remaining: 60 } });
  });

  it("is not given back by an expiry or a settle", () => {
    const steps = Array.from({ length: 240 }, (_, i): Step[] => [
      [reserve(`r${i}`, 1, `k${i % 8}`), T0 + i * 100],
      [i % 2 === 0 ? expire(`r${i}`) : settle(`r${i}`, 1), T0 + i * 100 + 50],
    ]).flat();
    const { state, decisions } = run(given([plenty]).state, steps);
    expect(admitted(decisions)).toBe(true);
    expect(state.open.size).toBe(0);
    // 120 settled units: the account's unit window has 60 left, the request window none.
    expect(decide(reserve("next", 1, "k9"), state, T0 + 24_000)).toEqual({
      rejection: { type: "RateLimited", kind: "scoring", window: "requests", limit: 240, retryAfter: 36, resetAt: seconds(T0 + 60_000), remaining: 60 },
    });
  });

  it("comes after credits: a 402 does not go away by waiting", () => {
    const { state } = run(given([granted(10, T0 - 1)]).state, settledForNothing(240, 100));
    expect(decide(reserve("next", 11), state, T0 + 24_000)).toEqual({ rejection: { type: "InsufficientCredits", available: 10, required: 11 } });
  });

  it("when a unit window is full too, waits for the later one and names it", () => {
    // 239 requests of k2 from T0 (settled for nothing), then k1 uses its 60 units at T0 + 10 s.
    const steps: Step[] = [...settledForNothing(239, 10, undefined, () => "k2"), [reserve("big", 60, "k1"), T0 + 10_000], [settle("big", 60), T0 + 10_001]];
    const { state, decisions } = run(given([plenty]).state, steps);
    expect(admitted(decisions)).toBe(true);
    // k1's window frees at T0 + 70 s, the request window at T0 + 60 s.
    expect(decide(reserve("next", 1, "k1"), state, T0 + 30_000)).toMatchObject({ rejection: { window: "key", limit: 60, retryAfter: 40 } });
    expect(decide(reserve("next", 1, "k3"), state, T0 + 30_000)).toMatchObject({ rejection: { window: "requests", limit: 240, retryAfter: 30 } });
  });

  it("follows the limits it is given (the ledger's configuration)", () => {
    const { state } = run(given([plenty]).state, settledForNothing(2, 100));
    const limits = { requests: 2, fetches: 40 };
    expect(decide(reserve("next", 1), state, T0 + 1_000, ACCOUNT_RATE_LIMITS, limits)).toMatchObject({ rejection: { type: "RateLimited", window: "requests", limit: 2 } });
    expect("events" in decide(reserve("next", 1), state, T0 + 1_000)).toBe(true);
  });
});

describe("fetch window: image URLs per account", () => {
  // 30 requests of 20 URLs, a second apart: 600, the default limit.
  const full = run(given([plenty]).state, settledForNothing(30, 1_000, 20));

  it("admits 600 fetches a minute, refuses one more until the oldest have aged out", () => {
    expect(admitted(full.decisions)).toBe(true);
    expect(decide(reserve("next", 1, "k1", "scoring", 1), full.state, T0 + 30_000)).toEqual({
      rejection: { type: "RateLimited", kind: "scoring", window: "fetches", limit: 600, retryAfter: 30, resetAt: seconds(T0 + 60_000), remaining: 60 },
    });
    // 40 URLs need the first two requests' gone: at T0 + 61 s.
    expect(decide(reserve("next", 1, "k1", "scoring", 40), full.state, T0 + 30_000)).toMatchObject({ rejection: { window: "fetches", retryAfter: 31, resetAt: seconds(T0 + 61_000) } });
    expect(decide(reserve("next", 1, "k1", "scoring", 20), full.state, T0 + 60_000)).toEqual({ events: [reserved("next", 1, T0 + 60_000, "k1", "scoring", 20)] });
  });

  it("asks nothing of a request that fetches nothing", () => {
    expect(decide(reserve("next", 1, "k1", "scoring", 0), full.state, T0 + 30_000)).toEqual({ events: [reserved("next", 1, T0 + 30_000)] });
    expect(decide(reserve("next", 1), full.state, T0 + 30_000)).toEqual({ events: [reserved("next", 1, T0 + 30_000)] });
  });

  it("writes fetches on the event only when there are some, so events of callers without them are unchanged", () => {
    for (const fetches of [undefined, 0]) {
      const d = decide(reserve("r1", 1, "k1", "scoring", fetches), given([plenty]).state, T0);
      expect("events" in d && Object.keys(d.events[0]!)).toEqual(["type", "reservationId", "keyId", "kind", "units", "at"]);
    }
    expect(decide(reserve("r1", 1, "k1", "scoring", 7), given([plenty]).state, T0)).toEqual({ events: [reserved("r1", 1, T0, "k1", "scoring", 7)] });
  });

  it.each([-1, 1.5, Number.NaN, 601])("refuses %s fetches as malformed (more than the window holds could never be admitted)", (fetches) => {
    expect(decide(reserve("r1", 1, "k1", "scoring", fetches), given([plenty]).state, T0)).toMatchObject({ rejection: { type: "InvalidCommand" } });
  });

  it("bounds one reservation's fetches at 1,000 even when the window holds more", () => {
    const state = given([plenty]).state;
    const roomy = { requests: 240, fetches: 5_000 };
    expect("events" in decide(reserve("r1", 1, "k1", "scoring", 1_000), state, T0, ACCOUNT_RATE_LIMITS, roomy)).toBe(true);
    expect(decide(reserve("r1", 1, "k1", "scoring", 1_001), state, T0, ACCOUNT_RATE_LIMITS, roomy)).toEqual({
      rejection: { type: "InvalidCommand", reason: "fetches must be an integer from 0 to 1000" },
    });
  });
});

describe("replay", () => {
  it("counts events written before fetches existed as requests of no fetches", () => {
    // As an old stream holds them: UsageReserved without `fetches`.
    const old: LedgerEvent[] = [plenty, ...Array.from({ length: 239 }, (_, i) => [reserved(`o${i}`, 1, T0 + i * 10), settled(`o${i}`, 1, 0, T0 + i * 10, T0 + i * 10 + 5)]).flat()];
    const state = (JSON.parse(JSON.stringify(old)) as LedgerEvent[]).reduce(evolve, initialState());
    expect(state.requests).toHaveLength(239);
    expect(state.requests.every((e) => e.fetches === 0)).toBe(true);
    const next = given(old).when(reserve("n1", 1, "k1", "scoring", 600), T0 + 10_000).after();
    expect(decide(reserve("n2", 1), next, T0 + 10_000)).toMatchObject({ rejection: { type: "RateLimited", window: "requests", retryAfter: 50 } });
  });

  it("rebuilds the same windows from the emitted events, through JSON", () => {
    const steps = Array.from({ length: 600 }, (_, i): Step[] => [
      [reserve(`r${i}`, 1 + (i % 3), `k${i % 5}`, "scoring", i % 4 === 0 ? undefined : (i * 7) % 21), T0 + i * 180],
      [i % 3 === 0 ? expire(`r${i}`) : settle(`r${i}`, i % 2), T0 + i * 180 + 90],
    ]).flat();
    let live = given([plenty]).state;
    const log: LedgerEvent[] = [plenty];
    const refused = new Set<string>();
    for (const [command, now] of steps) {
      const d = decide(command, live, now);
      if ("rejection" in d && d.rejection.type === "RateLimited") refused.add(d.rejection.window);
      if ("events" in d) {
        log.push(...d.events);
        live = d.events.reduce(evolve, live);
      }
    }
    expect(refused).toContain("fetches");
    const replayed = (JSON.parse(JSON.stringify(log)) as LedgerEvent[]).reduce(evolve, initialState());
    expect(replayed).toEqual(live);
    const end = T0 + 600 * 180;
    for (const t of [end, end + 20_000, end + 61_000]) {
      for (const fetches of [0, 20]) expect(decide(reserve("next", 1, "k1", "scoring", fetches), replayed, t)).toEqual(decide(reserve("next", 1, "k1", "scoring", fetches), live, t));
    }
  });
});

describe("state stays small", () => {
  it("drops requests older than the window as time passes", () => {
    const { state } = run(given([plenty]).state, [...settledForNothing(100, 10, 3), [grant("later", 1), T0 + 130_000]]);
    expect(state.requests).toEqual([]);
  });
});
