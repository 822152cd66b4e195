import { describe, expect, it } from "vitest";
import { attemptOutcome, lastOutcome } from "./delivery-words.ts";

describe("delivery words", () => {
  it("names the last answer: a status, else the error, else that nothing was tried", () => {
    expect(lastOutcome({ attempts: 0, lastStatus: null, lastError: null })).toBe("not tried yet");
    expect(lastOutcome({ attempts: 2, lastStatus: 503, lastError: null })).toBe("HTTP 503");
    expect(lastOutcome({ attempts: 3, lastStatus: null, lastError: "timed out after 10 s" })).toBe("timed out after 10 s");
  });

  it("says each attempt's answer and how long it took", () => {
    expect(attemptOutcome({ status: 500, error: null, durationMs: 31 })).toBe("HTTP 500 in 31 ms");
    expect(attemptOutcome({ status: 200, error: null, durationMs: 1_250 })).toBe("HTTP 200 in 1.3 s");
    expect(attemptOutcome({ status: null, error: "timed out after 10 s", durationMs: 10_003 })).toBe("timed out after 10 s (10.0 s)");
  });
});
