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

  it("names a router's result subjects apart from the per-request ones and accepts only results subjects as a reply", () => {
    const a = topology("a1");
    expect(a.routedResult("gw-1", "r-1_0_full")).toBe("a1.results.to.gw-1.r-1_0_full");
    expect(a.routedResultsWildcard("gw-1")).toBe("a1.results.to.gw-1.*");
    // One token more than `results.<request>.<job>`: the per-request wildcard never sees a routed result.
    expect(a.resultsPerRequest).toBe("a1.results.*.*");
    expect(a.isResultSubject(a.routedResult("gw-1", "j"))).toBe(true);
    expect(a.isResultSubject(a.result("r-1", "j"))).toBe(true);
    for (const outside of ["a1.svc.ledger.settle", "a1.jobs.score", "results.to.gw-1.j", "b1.results.x.y", "a1.results.", "a1.results.>", "a1.results.*.j", "a1.results..j", "a1.resultsx.j", `a1.results.${"x".repeat(600)}`]) {
      expect(a.isResultSubject(outside), outside).toBe(false);
    }
    expect(() => a.routedResult("gw.*", "j")).toThrow(/subject token/);
  });
});
