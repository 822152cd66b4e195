import { describe, expect, it } from "vitest";
import { dailyUsage } from "./daily-usage.ts";

describe("dailyUsage", () => {
  it("fills the 30 days ending today, oldest first, with both kinds and their total", () => {
    const days = dailyUsage([{ day: "2026-03-01", kind: "scoring", units: 6 }, { day: "2026-03-01", kind: "pairwise", units: 1 }, { day: "2026-02-10", kind: "scoring", units: 3 }], "2026-03-01");
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: "2026-01-31", scoring: 0, pairwise: 0, total: 0 });
    expect(days[29]).toEqual({ day: "2026-03-01", scoring: 6, pairwise: 1, total: 7 });
    expect(days.find((d) => d.day === "2026-02-10")?.total).toBe(3);
  });

  it("leaves out days older than the window", () => {
    expect(dailyUsage([{ day: "2025-12-01", kind: "scoring", units: 9 }], "2026-03-01").every((d) => d.total === 0)).toBe(true);
  });
});
