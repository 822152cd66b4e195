import { describe, expect, it } from "vitest";
import { startDeadline } from "../src/index.ts";

describe("startDeadline", () => {
  it("aborts with a TimeoutError when the time is up", async () => {
    const deadline = startDeadline(20);
    await new Promise((r) => setTimeout(r, 40));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("never aborts once cleared, so a finished request holds no timer", async () => {
    const deadline = startDeadline(20);
    deadline.clear();
    await new Promise((r) => setTimeout(r, 40));
    expect(deadline.signal.aborted).toBe(false);
  });
});
