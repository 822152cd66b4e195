import { describe, expect, it } from "vitest";
import type { LedgerEvent } from "@adrank/ledger-domain";
import { decodeEvent, encodeEvent } from "../src/event-codec.ts";

const bytes = (json: unknown) => new TextEncoder().encode(JSON.stringify(json));
const settledBefore = { type: "UsageSettled", reservationId: "r1", keyId: "k1", kind: "scoring", unitsReserved: 4, unitsUsed: 3, reservedAt: 1_700_000_000_000, at: 1_700_000_060_000 };

describe("ledger event codec", () => {
  it("decodes a UsageSettled written before model usage existed, without adding the field", () => {
    const event = decodeEvent(bytes(settledBefore));
    expect(event).toEqual(settledBefore);
    expect("modelUsage" in event).toBe(false);
  });

  it("round-trips a UsageSettled with model usage", () => {
    const event: LedgerEvent = { ...(settledBefore as LedgerEvent & { type: "UsageSettled" }), modelUsage: [{ model: "openai:gpt-5-mini", calls: 6, inputTokens: 4_812, outputTokens: 310 }] };
    expect(decodeEvent(encodeEvent(event))).toEqual(event);
  });

  it("round-trips cache counts, and keeps them absent where the settlement reported none", () => {
    const usage = [
      { model: "anthropic:claude-sonnet-4-6", calls: 6, inputTokens: 9_000, outputTokens: 300, cachedInputTokens: 6_000, cacheWriteInputTokens: 1_500 },
      { model: "openai:gpt-5-mini", calls: 6, inputTokens: 4_812, outputTokens: 310 },
    ];
    const event: LedgerEvent = { ...(settledBefore as LedgerEvent & { type: "UsageSettled" }), modelUsage: usage };
    const decoded = decodeEvent(encodeEvent(event));
    expect(decoded).toEqual(event);
    expect(decoded.type === "UsageSettled" && Object.keys(decoded.modelUsage![1]!)).toEqual(["model", "calls", "inputTokens", "outputTokens"]);
    expect(() => decodeEvent(bytes({ ...settledBefore, modelUsage: [{ ...usage[0], cachedInputTokens: -1 }] }))).toThrow();
  });

  it("reads a reservation's fetches back, and a reservation from before them without the field", () => {
    const reservedBefore = { type: "UsageReserved", reservationId: "r1", keyId: "k1", kind: "scoring", units: 4, at: 1_700_000_000_000 };
    const event = decodeEvent(bytes(reservedBefore));
    expect(event).toEqual(reservedBefore);
    expect("fetches" in event).toBe(false);
    // The stream is the replicas' only source: a field the codec dropped would be a request window folded differently.
    expect(decodeEvent(bytes({ ...reservedBefore, fetches: 20 }))).toEqual({ ...reservedBefore, fetches: 20 });
    expect(() => decodeEvent(bytes({ ...reservedBefore, fetches: -1 }))).toThrow();
  });

  it("refuses model usage that is not counts", () => {
    expect(() => decodeEvent(bytes({ ...settledBefore, modelUsage: [{ model: "sim:a", calls: -1, inputTokens: 0, outputTokens: 0 }] }))).toThrow();
    expect(() => decodeEvent(bytes({ ...settledBefore, modelUsage: { model: "sim:a" } }))).toThrow();
  });
});
