import { describe, expect, it } from "vitest";
import { ACCOUNT_RATE_LIMITS, decide, evolve, initialState, RATE_LIMITS, windowRemaining, type LedgerEvent } from "../src/index.ts";
import { given, granted, reserve, reserved, run, settle, settled, T0 } from "./decider-spec.ts";

// The keys of one account share an account window (ACCOUNT_RATE_LIMITS per kind) above each
// key's own: making more keys no longer makes more room. It is read from the same window
// entries as the keys' windows, so nothing new is stored and replay needs nothing new.

const plenty = granted(100_000, T0 - 100_000);
const seconds = (ms: number) => Math.ceil(ms / 1_000);
/** `units` reserved at `at` by `keyId` and settled in full a millisecond later. */
const used = (id: string, units: number, at: number, keyId: string, kind: "scoring" | "pairwise" = "scoring"): LedgerEvent[] => [
  reserved(id, units, at, keyId, kind),
  settled(id, units, units, at, at + 1, keyId, kind),
];

describe("account window: all keys of an account together", () => {
  it("is a small multiple of the key limit, never below it", () => {
    for (const kind of ["scoring", "pairwise"] as const) {
      expect(ACCOUNT_RATE_LIMITS[kind]).toBe(3 * RATE_LIMITS[kind]);
    }
  });

  it("fills across several keys, each within its own window, and refuses the next key with retryAfter of the account's oldest units", () => {
    // Six keys use 30 each, ten seconds apart: 180, every key at half its own limit.
    const history = [plenty, ...[0, 1, 2, 3, 4, 5].flatMap((i) => used(`r${i}`, 30, T0 + i * 10_000, `k${i}`))];
    const now = T0 + 55_000;
    for (let i = 0; i < 6; i++) expect(windowRemaining(given(history).state, `k${i}`, "scoring", now)).toBe(0);
    // A key with an empty window of its own is refused by the account's: k0's 30 free at T0 + 60 s.
    given(history)
      .when(reserve("r7", 1, "k7"), now)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "account", limit: 180, retryAfter: 5, resetAt: seconds(T0 + 60_000), remaining: 0 });
    // 40 units need k0's 30 and k1's 30 gone: at T0 + 70 s.
    given(history)
      .when(reserve("r7", 40, "k7"), now)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "account", limit: 180, retryAfter: 15, resetAt: seconds(T0 + 70_000), remaining: 0 });
    // Once they have aged out, the same request fits.
    given(history).when(reserve("r7", 40, "k7"), T0 + 70_000).then([reserved("r7", 40, T0 + 70_000, "k7")]);
  });

  it("admits exactly up to the limit across keys: 180 in, the 181st out", () => {
    const steps = Array.from({ length: 4 }, (_, k) => [reserve(`a${k}`, k < 3 ? 60 : 1, `k${k}`), T0 + k] as [ReturnType<typeof reserve>, number]);
    const { state, decisions } = run(given([plenty]).state, steps);
    expect(decisions.slice(0, 3).every((d) => "events" in d)).toBe(true);
    // Open reservations 60 s old or younger free at their age-out; k0's is the first, at T0 + 60 s.
    expect(decisions[3]).toEqual({ rejection: { type: "RateLimited", kind: "scoring", window: "account", limit: 180, retryAfter: 60, resetAt: seconds(T0 + 60_000), remaining: 0 } });
    expect(windowRemaining(state, "k3", "scoring", T0 + 3)).toBe(0);
  });

  it("names the key's window when it alone is full, as before the account window existed", () => {
    const history = [plenty, ...used("a", 60, T0, "k1"), ...used("b", 30, T0, "k2"), ...used("c", 60, T0, "k3")];
    given(history)
      .when(reserve("d", 1, "k1"), T0 + 20_000)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 40, resetAt: seconds(T0 + 60_000), remaining: 0 });
    // The account has 30 left: a fresh key is told 30, not its own 60 (X-RateLimit-Remaining stays honest).
    expect(windowRemaining(given(history).state, "k4", "scoring", T0 + 20_000)).toBe(30);
    const state = given(history).when(reserve("d", 30, "k4"), T0 + 20_000).after();
    // k2 has 30 of its own left, but the account none.
    expect(windowRemaining(state, "k2", "scoring", T0 + 20_000)).toBe(0);
  });

  it("when both windows are full, waits for the later one and names it", () => {
    // k1: 10 at T0 and 40 at T0 + 5 s (50 of its 60); others: 130 at T0 + 2 s (the account full).
    const history = [plenty, ...used("a", 10, T0, "k1"), ...used("b", 40, T0 + 5_000, "k1"), ...used("c", 130, T0 + 2_000, "k2")];
    // 20 more: the key needs 10 freed (at T0 + 60 s), the account 20 (k1's 10, then the 130 at T0 + 62 s).
    given(history)
      .when(reserve("d", 20, "k1"), T0 + 30_000)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "account", limit: 180, retryAfter: 32, resetAt: seconds(T0 + 62_000), remaining: 0 });
    // k1: 60 (10 at T0, 50 at T0 + 20 s); others 120 at T0 + 1 s. 20 more: the key needs its 50 gone (T0 + 80 s), the account only until T0 + 61 s.
    const keyLater = [plenty, ...used("a", 10, T0, "k1"), ...used("b", 50, T0 + 20_000, "k1"), ...used("c", 120, T0 + 1_000, "k2")];
    given(keyLater)
      .when(reserve("d", 20, "k1"), T0 + 30_000)
      .thenRejects({ type: "RateLimited", kind: "scoring", window: "key", limit: 60, retryAfter: 50, resetAt: seconds(T0 + 80_000), remaining: 0 });
  });

  it("counts scoring and pairwise apart, as the keys' windows do", () => {
    const history = [plenty, ...used("a", 60, T0, "k1"), ...used("b", 60, T0, "k2"), ...used("c", 60, T0, "k3")];
    expect(given(history).when(reserve("d", 1, "k4"), T0 + 1_000).decision).toMatchObject({ rejection: { type: "RateLimited", window: "account", kind: "scoring" } });
    given(history).when(reserve("d", 60, "k4", "pairwise"), T0 + 1_000).then([reserved("d", 60, T0 + 1_000, "k4", "pairwise")]);
  });

  it("follows the limits it is given (the ledger's configuration)", () => {
    const state = given([plenty, ...used("a", 60, T0, "k1"), ...used("b", 40, T0, "k2")]).state;
    const limits = { scoring: 100, pairwise: 60 };
    expect(decide(reserve("c", 1, "k3"), state, T0 + 1_000, limits)).toMatchObject({ rejection: { type: "RateLimited", window: "account", limit: 100 } });
    expect(windowRemaining(state, "k3", "scoring", T0 + 1_000, limits)).toBe(0);
    expect("events" in decide(reserve("c", 60, "k3"), state, T0 + 1_000)).toBe(true);
    expect(windowRemaining(state, "k3", "scoring", T0 + 1_000)).toBe(60);
  });

  it("counts a revoked or forgotten key's units too: they were the account's", () => {
    // k1 was used then never again (e.g. revoked); its units still hold the account's room.
    const history = [plenty, ...used("a", 60, T0, "k1"), ...used("b", 60, T0 + 1, "k2"), ...used("c", 60, T0 + 2, "k3")];
    expect(given(history).when(reserve("d", 1, "k9"), T0 + 30_000).decision).toMatchObject({ rejection: { window: "account", retryAfter: 30 } });
  });

  it("is rebuilt identically on replay: from the same events, through JSON, the same decisions", () => {
    const steps = Array.from({ length: 400 }, (_, i): Array<[ReturnType<typeof reserve>, number]> => [
      [reserve(`r${i}`, 1 + (i % 7), `k${i % 11}`), T0 + i * 150],
      [settle(`r${i}`, i % 7), T0 + i * 150 + 100],
    ]).flat();
    const live = run(given([plenty]).state, steps);
    expect(live.decisions.some((d) => "rejection" in d && d.rejection.type === "RateLimited" && d.rejection.window === "account")).toBe(true);
    // The events the decisions emitted, as a fresh replica reads them from the stream.
    const log: LedgerEvent[] = [plenty];
    let state = given([plenty]).state;
    for (const [command, now] of steps) {
      const d = decide(command, state, now);
      if ("events" in d) {
        log.push(...d.events);
        state = d.events.reduce(evolve, state);
      }
    }
    const replayed = (JSON.parse(JSON.stringify(log)) as LedgerEvent[]).reduce(evolve, initialState());
    expect(replayed).toEqual(live.state);
    const end = T0 + 400 * 150;
    for (const t of [end, end + 20_000]) {
      for (let k = 0; k < 12; k++) {
        expect(windowRemaining(replayed, `k${k}`, "scoring", t)).toBe(windowRemaining(live.state, `k${k}`, "scoring", t));
        expect(decide(reserve("next", 5, `k${k}`), replayed, t)).toEqual(decide(reserve("next", 5, `k${k}`), live.state, t));
      }
    }
  });
});
