import { describe, expect, it } from "vitest";
import { mapWithSlots, startInOrder } from "../src/operations/shared/asset-slots.ts";

const tick = () => new Promise((r) => setTimeout(r, 1));

describe("mapWithSlots", () => {
  it("never has more than the limit in flight and keeps input order", async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapWithSlots(
      Array.from({ length: 10 }, (_, i) => i),
      4,
      new AbortController().signal,
      async (n) => {
        peak = Math.max(peak, ++inFlight);
        await tick();
        inFlight--;
        return n * 2;
      },
      () => -1,
    );
    expect(peak).toBe(4);
    expect(out).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  });

  it("starts nothing once the signal fired and answers with `skipped`", async () => {
    const stop = new AbortController();
    const out = await mapWithSlots([1, 2, 3, 4], 1, stop.signal, async (n) => {
      if (n === 2) stop.abort();
      return n;
    }, () => 0);
    expect(out).toEqual([1, 2, 0, 0]);
  });

  it("handles an empty list", async () => {
    expect(await mapWithSlots([], 4, new AbortController().signal, async () => 1, () => 0)).toEqual([]);
  });
});

describe("startInOrder", () => {
  it("starts items in input order, never more than the limit at once, and answers each item's promise", async () => {
    let running = 0;
    let peak = 0;
    const startedOrder: number[] = [];
    const promises = startInOrder([0, 1, 2, 3, 4, 5, 6], 3, async (n) => {
      startedOrder.push(n);
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5 + (n % 3) * 5));
      running--;
      return n * 10;
    });
    expect(promises).toHaveLength(7);
    expect(await Promise.all(promises)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(startedOrder).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
  });

  it("passes a rejection to that item only", async () => {
    const [a, b] = startInOrder([1, 2], 1, async (n) => {
      if (n === 1) throw new Error("no");
      return n;
    });
    await expect(a).rejects.toThrow("no");
    await expect(b).resolves.toBe(2);
  });
});
