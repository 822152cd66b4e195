import { describe, expect, it } from "vitest";
import { nextAttemptAt, PRODUCTION_SCHEDULE, retryDelayMs, type WebhookSchedule } from "../src/index.ts";

const HOUR = 3_600_000;
const schedule: WebhookSchedule = { baseMs: 1_000, maxDelayMs: 10_000, retryForMs: 60_000 };

/** Fails every attempt at once from t = 0; the times the attempts run, until the schedule gives up. */
function attemptTimes(s: WebhookSchedule, random: number): number[] {
  const times = [0];
  for (let attempt = 1; attempt < 10_000; attempt++) {
    const failedAt = times[times.length - 1]!;
    const next = nextAttemptAt(0, failedAt, attempt, s, random);
    if (next === null) return times;
    times.push(next);
  }
  throw new Error("the schedule never gave up");
}

describe("retryDelayMs", () => {
  it("starts at the base delay and doubles after every failed attempt", () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, schedule, 0))).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it("is capped at maxDelayMs, however many attempts failed", () => {
    expect(retryDelayMs(5, schedule, 0)).toBe(10_000);
    expect(retryDelayMs(60, schedule, 0)).toBe(10_000);
    expect(retryDelayMs(100_000, PRODUCTION_SCHEDULE, 0)).toBe(HOUR);
  });

  it("adds at most 10 % jitter, never less than the plain delay", () => {
    for (const attempt of [1, 3, 5, 40]) {
      const plain = retryDelayMs(attempt, schedule, 0);
      for (const random of [0.01, 0.5, 0.999_999]) {
        const jittered = retryDelayMs(attempt, schedule, random);
        expect(jittered).toBeGreaterThanOrEqual(plain);
        expect(jittered).toBeLessThanOrEqual(Math.round(plain * 1.1));
      }
    }
    expect(retryDelayMs(1, schedule, 0.5)).toBe(1_050);
  });
});

describe("nextAttemptAt", () => {
  it("is the failure time plus the delay while the retry period lasts", () => {
    expect(nextAttemptAt(0, 5_000, 2, schedule, 0)).toBe(7_000);
    expect(nextAttemptAt(100, 50_100, 9, schedule, 0)).toBe(60_100);
  });

  it("is null (the delivery failed) once the next attempt would fall after retryForMs", () => {
    expect(nextAttemptAt(100, 50_101, 9, schedule, 0)).toBeNull();
    const times = attemptTimes(schedule, 0);
    expect(times.at(-1)).toBeLessThanOrEqual(schedule.retryForMs);
    expect(times.at(-1)! + schedule.maxDelayMs).toBeGreaterThan(schedule.retryForMs);
  });
});

describe("PRODUCTION_SCHEDULE", () => {
  it("is DESIGN's: 10 s doubling, capped at 1 h, retried for 26 h", () => {
    expect(PRODUCTION_SCHEDULE).toEqual({ baseMs: 10_000, maxDelayMs: HOUR, retryForMs: 26 * HOUR });
  });

  it("keeps attempting for at least 24 h, whatever the jitter", () => {
    for (const random of [0, 0.5, 0.999_999]) {
      const times = attemptTimes(PRODUCTION_SCHEDULE, random);
      expect(times.at(-1)).toBeGreaterThanOrEqual(24 * HOUR);
      expect(times.at(-1)).toBeLessThanOrEqual(26 * HOUR);
      // No gap is ever longer than the cap with its jitter.
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(1.1 * HOUR);
    }
  });
});
