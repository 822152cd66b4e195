import { describe, expect, it } from "vitest";
import { createCallWindow } from "../src/operations/shared/call-window.ts";

// The per-account window of the free endpoints (outcomes, calibration): fixed minutes of the
// clock, counted per account, refused with how long to wait, memory bounded.

const MINUTE = 60_000;
const T0 = 31_666_667 * MINUTE; // a whole minute of the epoch

describe("createCallWindow", () => {
  it("admits `limit` calls per account in a window, then says how long until the window ends", () => {
    let now = T0 + 15_500;
    const w = createCallWindow({ limit: 3, windowMs: MINUTE, maxAccounts: 10, now: () => now });
    expect([w.take("a"), w.take("a"), w.take("a")].every((v) => v.ok)).toBe(true);
    expect(w.take("a")).toEqual({ ok: false, retryAfter: 45, resetAt: (T0 + MINUTE) / 1000 });
    // Another account has its own count.
    expect(w.take("b").ok).toBe(true);
    // Refused calls are not counted: the next window starts fresh.
    now = T0 + MINUTE;
    expect(w.take("a").ok).toBe(true);
    expect(w.size()).toBe(1);
  });

  it("never answers a Retry-After below 1 s", () => {
    const now = T0 + MINUTE - 10;
    const w = createCallWindow({ limit: 1, windowMs: MINUTE, maxAccounts: 10, now: () => now });
    w.take("a");
    expect(w.take("a")).toMatchObject({ ok: false, retryAfter: 1 });
  });

  it("holds at most maxAccounts counts; beyond, a new account's call goes through uncounted", () => {
    const w = createCallWindow({ limit: 1, windowMs: MINUTE, maxAccounts: 2, now: () => T0 });
    w.take("a");
    w.take("b");
    expect(w.take("c").ok).toBe(true);
    expect(w.take("c").ok).toBe(true);
    expect(w.size()).toBe(2);
    // The counted ones stay limited.
    expect(w.take("a").ok).toBe(false);
  });
});
