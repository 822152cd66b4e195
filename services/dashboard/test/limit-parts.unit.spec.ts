import { describe, expect, it } from "vitest";
import { loadConfig } from "@adrank/runtime";
import { addressKey } from "../src/client-address.ts";
import { DashboardEnv } from "../src/config.ts";
import { secondsUntil, tryAgainIn, windowOf } from "../src/fixed-window.ts";
import { counterKey } from "../src/limit-counters.ts";

describe("pure parts of the console's limits", () => {
  it("puts every moment of an hour in the same epoch-aligned window, and the next hour in the next", () => {
    const hour = 3_600_000;
    const at = Date.parse("2026-11-24T10:40:00Z");
    expect(windowOf(at, hour)).toEqual({ start: new Date("2026-11-24T10:00:00Z"), end: new Date("2026-11-24T11:00:00Z") });
    expect(windowOf(Date.parse("2026-11-24T10:00:00Z"), hour).start).toEqual(new Date("2026-11-24T10:00:00Z"));
    expect(windowOf(Date.parse("2026-11-24T10:59:59.999Z"), hour).start).toEqual(new Date("2026-11-24T10:00:00Z"));
    expect(windowOf(Date.parse("2026-11-24T11:00:00Z"), hour).start).toEqual(new Date("2026-11-24T11:00:00Z"));
  });

  it("says how long to wait in whole seconds, at least one, and in a sentence", () => {
    const end = new Date(10_000);
    expect(secondsUntil(end, 8_500)).toBe(2);
    expect(secondsUntil(end, 10_000)).toBe(1);
    expect(secondsUntil(end, 12_000)).toBe(1);
    expect(tryAgainIn(1)).toBe("Try again in 1 second.");
    expect(tryAgainIn(40)).toBe("Try again in 40 seconds.");
    expect(tryAgainIn(60)).toBe("Try again in 1 minute.");
    expect(tryAgainIn(61)).toBe("Try again in 2 minutes.");
    expect(tryAgainIn(3_600)).toBe("Try again in 60 minutes.");
  });

  it("counts IPv4 addresses as they are, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
    // Whatever is not an address (a test's fake) is its own key.
    expect(addressKey("not-an-ip")).toBe("not-an-ip");
  });

  it("stores counters under a hash of the email or address, never the value itself", () => {
    const key = counterKey("signin:email", "ada@example.com");
    expect(key).toMatch(/^signin:email:[0-9a-f]{64}$/);
    expect(key).not.toContain("ada");
    expect(counterKey("signup:all", "")).toBe("signup:all");
  });

  it("defaults to 5 sign-ups per address and 200 in all per hour, 5 failed sign-ins per 15 minutes, 100 credits and no trusted proxy", () => {
    const config = loadConfig(DashboardEnv, {});
    expect(config).toMatchObject({
      DASHBOARD_SIGNUP_LIMIT_PER_ADDRESS: 5,
      DASHBOARD_SIGNUP_LIMIT_GLOBAL: 200,
      DASHBOARD_SIGNUP_WINDOW_MINUTES: 60,
      DASHBOARD_SIGNIN_MAX_FAILURES: 5,
      DASHBOARD_SIGNIN_WINDOW_MINUTES: 15,
      DASHBOARD_SIGNUP_CREDITS: 100,
      DASHBOARD_TRUST_PROXY: 0,
    });
    expect(loadConfig(DashboardEnv, { DASHBOARD_SIGNUP_CREDITS: "0" }).DASHBOARD_SIGNUP_CREDITS).toBe(0);
    expect(() => loadConfig(DashboardEnv, { DASHBOARD_SIGNUP_LIMIT_PER_ADDRESS: "0" })).toThrow(/DASHBOARD_SIGNUP_LIMIT_PER_ADDRESS/);
  });

  it("reads DASHBOARD_TRUST_PROXY as a hop count, `false` as 0, and refuses `true` with a sentence saying what to set", () => {
    const hops = (value: string) => loadConfig(DashboardEnv, { DASHBOARD_TRUST_PROXY: value }).DASHBOARD_TRUST_PROXY;
    expect(hops("0")).toBe(0);
    expect(hops("1")).toBe(1);
    expect(hops(" 2 ")).toBe(2);
    expect(hops("false")).toBe(0);
    expect(hops("")).toBe(0);
    expect(() => hops("true")).toThrow(/DASHBOARD_TRUST_PROXY: is now the number of proxies in front of the console, not a flag: set 1 behind one ingress/);
    expect(() => hops("TRUE")).toThrow(/not a flag/);
    expect(() => hops("11")).toThrow(/DASHBOARD_TRUST_PROXY: must be a number of proxy hops from 0 to 10, got "11"/);
    expect(() => hops("-1")).toThrow(/from 0 to 10/);
    expect(() => hops("1.5")).toThrow(/from 0 to 10/);
  });
});
