import { describe, expect, it } from "vitest";
import { loadConfig } from "@adrank/runtime";
import { bodyTooLarge, formatLimit } from "../src/body-limits.ts";
import { DashboardEnv } from "../src/config.ts";
import { Credentials, EMAIL_MAX_CHARS, isEmailAddress } from "../src/credentials.ts";
import { createDeviceTokens } from "../src/device-token.ts";
import { createUnauthenticatedLimiter } from "../src/unauthenticated-limiter.ts";

/** The pattern the console used to check emails with: the rule isEmailAddress keeps, in quadratic time. */
const OLD_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

describe("the email check", () => {
  it("accepts and refuses exactly what the old pattern did", () => {
    const samples = ["ada@example.com", "a@b.c", "a@b.c.", "a@.b.c", "a@b..c", "a@.bc", "a@bc.", "a@bc", "@b.c", "a@@b.c", "a@b@c.d", "a b@c.d", "a@b.c\u00a0", "a@b\t.c", "ä@ü.ö", "a.b@c", "a@b.cd.ef", "a@-.-", "x@y..", "x@..y", "x@.", "x@", "", "@", ".", "a@b.c d"];
    for (const s of samples) expect(isEmailAddress(s), JSON.stringify(s)).toBe(OLD_PATTERN.test(s));
  });

  it("checks the length first and stops there, so a long email never reaches the shape check", () => {
    const started = performance.now();
    const long = Credentials.safeParse({ email: `a@${"a.".repeat(500_000)}@`, password: "x" });
    expect(performance.now() - started).toBeLessThan(100);
    expect(long.success).toBe(false);
    expect(long.error?.issues.map((i) => i.code)).toEqual(["too_big"]);
    expect(Credentials.safeParse({ email: `${"a".repeat(EMAIL_MAX_CHARS - 6)}@b.com`, password: "x" }).success).toBe(true);
    expect(Credentials.safeParse({ email: "  Ada@Example.COM ", password: "x" }).data?.email).toBe("ada@example.com");
  });
});

describe("known-device tokens", () => {
  const clock = { at: Date.parse("2030-05-01T00:00:00Z") };
  const tokens = createDeviceTokens("d".repeat(40), { maxAgeMs: 30 * 86_400_000, now: () => clock.at });

  it("is valid for its own email within its age, and for nothing else", () => {
    const token = tokens.issue("ada@x.io");
    const id = tokens.verify(token, "ada@x.io");
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(tokens.verify(tokens.issue("ada@x.io"), "ada@x.io")).not.toBe(id);
    expect(tokens.verify(token, "eve@x.io")).toBeNull();
    expect(createDeviceTokens("e".repeat(40), { maxAgeMs: 30 * 86_400_000, now: () => clock.at }).verify(token, "ada@x.io")).toBeNull();
    const [v, issued, tokenId, mac] = token.split(".");
    expect(tokens.verify([v, Number(issued) + 1, tokenId, mac].join("."), "ada@x.io")).toBeNull();
    expect(tokens.verify(`${token}.x`, "ada@x.io")).toBeNull();
    expect(tokens.verify("", "ada@x.io")).toBeNull();
    expect(tokens.verify("x".repeat(16_000), "ada@x.io")).toBeNull();
    clock.at += 30 * 86_400_000 + 1_000;
    expect(tokens.verify(token, "ada@x.io")).toBeNull();
    expect(tokens.maxAgeS).toBe(2_592_000);
  });
});

describe("the limit on 401s per address", () => {
  it("refuses an address past its share until its window ends, and forgets every count with the window", () => {
    const clock = { at: Date.parse("2030-05-01T10:00:10Z") };
    const limiter = createUnauthenticatedLimiter({ perAddress: 2, windowMs: 60_000 }, { now: () => clock.at });
    expect(limiter.retryAfter("198.51.100.1")).toBeNull();
    limiter.record("198.51.100.1");
    limiter.record("198.51.100.1");
    expect(limiter.retryAfter("198.51.100.1")).toBe(50);
    expect(limiter.retryAfter("198.51.100.2")).toBeNull();
    clock.at = Date.parse("2030-05-01T10:01:00Z");
    expect(limiter.retryAfter("198.51.100.1")).toBeNull();
  });

  it("holds at most `capacity` addresses, making room by forgetting the oldest", () => {
    const limiter = createUnauthenticatedLimiter({ perAddress: 1, windowMs: 60_000 }, { now: () => 0, capacity: 2 });
    for (const a of ["a", "b", "c"]) limiter.record(a);
    expect(limiter.retryAfter("a")).toBeNull();
    expect(limiter.retryAfter("b")).toBe(60);
    expect(limiter.retryAfter("c")).toBe(60);
  });
});

describe("body limits in words", () => {
  it("names a limit in MiB, KiB or bytes", () => {
    expect(formatLimit(25 * 1024 * 1024)).toBe("25 MiB");
    expect(formatLimit(64 * 1024)).toBe("64 KiB");
    expect(formatLimit(1_500)).toBe("1,500 bytes");
    expect(bodyTooLarge(65_536)).toBe("The request body is too large: 64 KiB at most.");
  });
});

describe("the settings of these limits", () => {
  it("default to 20 failures per email from unknown devices, 30-day device cookies, 60 401s a minute, 64 KiB and 25 MiB bodies", () => {
    expect(loadConfig(DashboardEnv, {})).toMatchObject({
      DASHBOARD_SIGNIN_MAX_FAILURES_PER_EMAIL: 20,
      DASHBOARD_DEVICE_COOKIE_DAYS: 30,
      DASHBOARD_UNAUTHENTICATED_LIMIT_PER_ADDRESS: 60,
      DASHBOARD_UNAUTHENTICATED_WINDOW_SECONDS: 60,
      DASHBOARD_BODY_LIMIT_BYTES: 65_536,
      DASHBOARD_PLAYGROUND_BODY_LIMIT_BYTES: 26_214_400,
    });
    expect(loadConfig(DashboardEnv, { DASHBOARD_BODY_LIMIT_BYTES: "16384" }).DASHBOARD_BODY_LIMIT_BYTES).toBe(16_384);
    expect(() => loadConfig(DashboardEnv, { DASHBOARD_PLAYGROUND_BODY_LIMIT_BYTES: String(26 * 1024 * 1024) })).toThrow(/DASHBOARD_PLAYGROUND_BODY_LIMIT_BYTES/);
    expect(() => loadConfig(DashboardEnv, { DASHBOARD_UNAUTHENTICATED_LIMIT_PER_ADDRESS: "0" })).toThrow(/DASHBOARD_UNAUTHENTICATED_LIMIT_PER_ADDRESS/);
  });
});
