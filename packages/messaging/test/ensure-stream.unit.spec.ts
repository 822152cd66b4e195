import { describe, expect, it } from "vitest";
import { retryWhileElecting } from "../src/ensure-stream.ts";

const timeout = () => Object.assign(new Error("timeout"), { name: "TimeoutError" });

describe("retryWhileElecting", () => {
  it("repeats a call that times out (a clustered stream or the meta leader being elected) until it answers", async () => {
    let calls = 0;
    const value = await retryWhileElecting(async () => {
      if (++calls < 3) throw timeout();
      return "ok";
    });
    expect(value).toBe("ok");
    expect(calls).toBe(3);
  });

  it("recognizes a time-out wrapped as the cause of another error", async () => {
    let calls = 0;
    await retryWhileElecting(async () => {
      if (++calls < 2) throw new Error("request failed", { cause: timeout() });
    });
    expect(calls).toBe(2);
  });

  it("throws any other error at once", async () => {
    let calls = 0;
    await expect(
      retryWhileElecting(async () => {
        calls++;
        throw new Error("stream name already in use with a different configuration");
      }),
    ).rejects.toThrow(/already in use/);
    expect(calls).toBe(1);
  });

  it("gives up once its patience is spent", async () => {
    let calls = 0;
    await expect(
      retryWhileElecting(async () => {
        calls++;
        throw timeout();
      }, 300),
    ).rejects.toThrow("timeout");
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
