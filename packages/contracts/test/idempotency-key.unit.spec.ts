import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_KEY_MAX_CHARS, idempotencyKeyProblem } from "../src/index.ts";

const VISIBLE_ASCII = "must be visible ASCII characters only (no spaces or control characters); a UUID is a good choice";

describe("idempotencyKeyProblem", () => {
  it.each([
    ["a UUID", "5b0f3a3e-2d4c-4f7e-9c61-8f1d2a7b6e90"],
    ["one character", "x"],
    ["every visible ASCII character", Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join("")],
    [`exactly ${IDEMPOTENCY_KEY_MAX_CHARS} characters`, "k".repeat(IDEMPOTENCY_KEY_MAX_CHARS)],
  ])("accepts %s", (_name, key) => {
    expect(idempotencyKeyProblem(key)).toBeNull();
  });

  it("refuses an empty key", () => {
    expect(idempotencyKeyProblem("")).toBe("must not be empty");
  });

  it(`refuses a key longer than ${IDEMPOTENCY_KEY_MAX_CHARS} characters`, () => {
    expect(IDEMPOTENCY_KEY_MAX_CHARS).toBe(255);
    expect(idempotencyKeyProblem("k".repeat(IDEMPOTENCY_KEY_MAX_CHARS + 1))).toBe("must be at most 255 characters long");
  });

  it.each([
    ["a space", "order 42"],
    ["a tab", "order\t42"],
    ["a newline (header injection)", "order-42\r\nX-Evil: 1"],
    ["a NUL", "a\u0000b"],
    ["DEL", "a\u007fb"],
    ["a non-ASCII letter", "bestellung-ä"],
    ["an emoji", "key-🔑"],
    ["only a space", " "],
  ])("refuses %s", (_name, key) => {
    expect(idempotencyKeyProblem(key)).toBe(VISIBLE_ASCII);
  });
});
