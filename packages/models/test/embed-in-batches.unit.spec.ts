import { describe, expect, it } from "vitest";
import { embedInBatches } from "../src/adapters/embed-in-batches.ts";

describe("embedInBatches", () => {
  it("splits a call at the provider's batch limit and keeps the vectors in the order of the texts", async () => {
    const batches: string[][] = [];
    const signal = new AbortController().signal;
    const seen: Array<AbortSignal | undefined> = [];
    const vectors = await embedInBatches(["a", "b", "c", "d", "e"], 2, async (batch, s) => {
      batches.push(batch);
      seen.push(s);
      return batch.map((t) => [t.charCodeAt(0)]);
    }, signal);
    expect(batches).toEqual([["a", "b"], ["c", "d"], ["e"]]);
    expect(vectors).toEqual([[97], [98], [99], [100], [101]]);
    expect(seen.every((s) => s === signal)).toBe(true);
  });

  it("makes no request for no texts", async () => {
    let calls = 0;
    expect(await embedInBatches([], 100, async () => (calls++, []))).toEqual([]);
    expect(calls).toBe(0);
  });
});
