import { describe, expect, it } from "vitest";
import { createDispatchTally } from "../src/index.ts";

describe("a client that leaves pays for the work it set going", () => {
  it("bills what succeeded and what was dispatched and not answered, not what failed or was never dispatched", () => {
    const t = createDispatchTally();
    for (const id of ["a", "b", "c", "d", "e"]) t.dispatched(id);
    t.answered("a", true);
    t.answered("b", false);
    t.freeze();
    expect(t.counts()).toEqual({ succeeded: 1, inFlight: 3 });
    expect(t.billedWhenClientLeft(8)).toBe(4);
  });

  it("is not moved by what comes back after the client left, nor by work dispatched after", () => {
    const t = createDispatchTally();
    t.dispatched("a");
    t.dispatched("b");
    t.freeze();
    // The results join ends every wait with a failure once the request stops.
    t.answered("a", false);
    t.answered("b", false);
    t.dispatched("c");
    t.freeze();
    expect(t.billedWhenClientLeft(10)).toBe(2);
  });

  it("never bills more than was reserved, and ignores answers to work it did not dispatch", () => {
    const t = createDispatchTally();
    for (const id of ["a", "b", "c"]) t.dispatched(id);
    t.answered("zzz", true);
    expect(t.billedWhenClientLeft(2)).toBe(2);
    expect(t.counts()).toEqual({ succeeded: 0, inFlight: 3 });
  });
});
