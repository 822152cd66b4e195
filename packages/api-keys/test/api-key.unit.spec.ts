import { describe, expect, it } from "vitest";
import { bearerToken, issueKey, lookupOf, verifyKey, KEY_PREFIX, LOOKUP_LENGTH } from "../src/index.ts";

const bytes = (seed: number) => Uint8Array.from({ length: 41 }, (_, i) => (seed * 31 + i * 7) & 0xff);

describe("issueKey", () => {
  it("makes an agk_live_ key whose look-up handle and hash identify it", () => {
    const k = issueKey(bytes(1));
    expect(k.raw.startsWith(KEY_PREFIX)).toBe(true);
    expect(k.raw).toHaveLength(KEY_PREFIX.length + 12 + 43);
    expect(k.lookup).toHaveLength(LOOKUP_LENGTH);
    expect(k.raw.startsWith(k.lookup)).toBe(true);
    expect(lookupOf(k.raw)).toBe(k.lookup);
    expect(k.hash).toMatch(/^[a-f0-9]{64}$/);
    expect(k.hash).not.toContain(k.raw.slice(LOOKUP_LENGTH));
    expect(k.lastFour).toBe(k.raw.slice(-4));
  });

  it("gives different keys for different random bytes", () => {
    expect(issueKey(bytes(1)).raw).not.toBe(issueKey(bytes(2)).raw);
  });

  it("refuses too few random bytes", () => {
    expect(() => issueKey(new Uint8Array(16))).toThrow(/random bytes/);
  });
});

describe("verifyKey and lookupOf", () => {
  const k = issueKey(bytes(3));
  it("accepts the exact key and refuses any change to it", () => {
    expect(verifyKey(k.raw, k.hash)).toBe(true);
    const last = k.raw.at(-1) === "A" ? "B" : "A";
    expect(verifyKey(k.raw.slice(0, -1) + last, k.hash)).toBe(false);
    expect(verifyKey(k.raw, "zz")).toBe(false);
  });

  it.each([
    ["", "empty"],
    ["agk_test_" + "a".repeat(55), "other prefix"],
    ["agk_live_short", "too short"],
    ["agk_live_" + "a".repeat(56), "too long"],
    ["agk_live_" + "a".repeat(54) + "=", "bad character"],
  ])("refuses %s (%s)", (presented) => {
    expect(lookupOf(presented)).toBeNull();
  });
});

describe("bearerToken", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["Bearer", null],
    ["Basic abc", null],
    ["Bearer a b", null],
    ["Bearer agk_live_x", "agk_live_x"],
    ["bearer agk_live_x", "agk_live_x"],
    ["BEARER   agk_live_x ", "agk_live_x"],
  ])("%j → %j", (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});
