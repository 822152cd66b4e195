import { describe, expect, it } from "vitest";
import { topology } from "../src/index.ts";

describe("topology", () => {
  it("keeps namespaces apart and refuses ids that would widen a subscription", () => {
    const a = topology("a1");
    const plain = topology();
    expect(plain.jobs.score).toBe("jobs.score");
    expect(plain.streams.jobs.name).toBe("JOBS");
    expect(a.jobs.score).toBe("a1.jobs.score");
    expect(a.streams.ledger.name).toBe("a1_LEDGER");
    expect(a.resultsWildcard("r-1")).toBe("a1.results.r-1.>");
    expect(() => a.result("r.*", "j")).toThrow(/subject token/);
    expect(() => a.ledgerAccount(">")).toThrow(/subject token/);
    expect(a.cancel("r-1")).toBe("a1.cancel.r-1");
    expect(a.cancelAll).toBe("a1.cancel.*");
    expect(plain.cancel("r-1")).toBe("cancel.r-1");
    expect(() => a.cancel("r.>")).toThrow(/subject token/);
  });
});
