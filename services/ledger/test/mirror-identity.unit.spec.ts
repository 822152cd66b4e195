import { describe, expect, it } from "vitest";
import { judgeStream } from "../src/index.ts";

const created = new Date("2026-11-24T10:00:00.123Z");

describe("judging whether a stream is the one a mirror follows", () => {
  it("accepts the same stream, caught up or ahead of the mirror", () => {
    expect(judgeStream({ stream: "LEDGER", streamCreated: created, lastSeq: 40 }, { name: "LEDGER", created, lastSeq: 40 })).toBeNull();
    expect(judgeStream({ stream: "LEDGER", streamCreated: created, lastSeq: 40 }, { name: "LEDGER", created, lastSeq: 41 })).toBeNull();
  });

  it("ignores precision below a millisecond (NATS reports nanoseconds, Postgres keeps microseconds)", () => {
    const nanos = new Date(Date.parse("2026-11-24T10:00:00.123456789Z"));
    expect(judgeStream({ stream: "LEDGER", streamCreated: created, lastSeq: 1 }, { name: "LEDGER", created: nanos, lastSeq: 1 })).toBeNull();
  });

  it("names a recreated stream, with both creation times, even when it already holds more events", () => {
    const later = new Date("2026-11-24T12:30:00.000Z");
    const p = judgeStream({ stream: "LEDGER", streamCreated: created, lastSeq: 40 }, { name: "LEDGER", created: later, lastSeq: 90 });
    expect(p?.kind).toBe("recreated");
    expect(p?.sentence).toContain("2026-11-24T12:30:00.000Z");
    expect(p?.sentence).toContain("2026-11-24T10:00:00.123Z");
    expect(p?.sentence).toMatch(/recreated or reset/);
    expect(p?.sentence).toMatch(/docs\/ledger-mirror\.md/);
  });

  it("names a stream that ends below what was projected", () => {
    const p = judgeStream({ stream: "ns_LEDGER", streamCreated: created, lastSeq: 40 }, { name: "ns_LEDGER", created, lastSeq: 12 });
    expect(p?.kind).toBe("behind");
    expect(p?.sentence).toContain('"ns_LEDGER" ends at sequence 12');
    expect(p?.sentence).toContain("projected sequence 40");
  });
});
