import { describe, expect, it } from "vitest";
import { createGroupWriter } from "../src/lifecycle/group-writer.ts";

/** A write the test finishes by hand, recording what each call got. */
function manualWrites(fails: (items: string[]) => boolean = () => false) {
  const calls: Array<{ items: string[]; finish: () => void }> = [];
  const write = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ items, finish: () => (fails(items) ? reject(new Error(`refused ${items.join(",")}`)) : resolve()) });
    });
  return { calls, write };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("group writer (answers stored before they are sent)", () => {
  it("writes a lone item at once, without waiting for company", async () => {
    const { calls, write } = manualWrites();
    const writer = createGroupWriter(write, { maxBatch: 100, maxInFlight: 2 });
    const done = writer.write("a");
    expect(calls.map((c) => c.items)).toEqual([["a"]]);
    calls[0]!.finish();
    await expect(done).resolves.toBeUndefined();
  });

  it("combines the items that arrive while the writes in flight run, and answers each when its group is written", async () => {
    const { calls, write } = manualWrites();
    const writer = createGroupWriter(write, { maxBatch: 3, maxInFlight: 2 });
    const settled: string[] = [];
    const items = ["a", "b", "c", "d", "e", "f"];
    const promises = items.map((i) => writer.write(i).then(() => settled.push(i)));
    // Two writes in flight (a, b); the rest wait.
    expect(calls.map((c) => c.items)).toEqual([["a"], ["b"]]);
    calls[0]!.finish();
    await tick();
    // A slot is free: the next three go together, the last waits for the following slot.
    expect(calls.map((c) => c.items)).toEqual([["a"], ["b"], ["c", "d", "e"]]);
    expect(settled).toEqual(["a"]);
    calls[2]!.finish();
    await tick();
    expect(calls.map((c) => c.items)).toEqual([["a"], ["b"], ["c", "d", "e"], ["f"]]);
    expect(settled).toEqual(["a", "c", "d", "e"]);
    calls[1]!.finish();
    calls[3]!.finish();
    await Promise.all(promises);
    expect(settled.sort()).toEqual(items);
  });

  it("fails only the item that cannot be written: a refused group is written again item by item", async () => {
    const { calls, write } = manualWrites((items) => items.includes("bad"));
    const writer = createGroupWriter(write, { maxBatch: 10, maxInFlight: 1 });
    const first = writer.write("first");
    const rest = ["x", "bad", "y"].map((i) => writer.write(i).then(() => "ok", (e: Error) => e.message));
    calls[0]!.finish();
    await first;
    await tick();
    expect(calls[1]!.items).toEqual(["x", "bad", "y"]);
    calls[1]!.finish();
    await tick();
    expect(calls.slice(2).map((c) => c.items)).toEqual([["x"], ["bad"], ["y"]]);
    for (const c of calls.slice(2)) c.finish();
    expect(await Promise.all(rest)).toEqual(["ok", "refused bad", "ok"]);
  });
});
