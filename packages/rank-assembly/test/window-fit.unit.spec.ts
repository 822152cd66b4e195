import { describe, expect, it } from "vitest";
import { oversizedForWindow } from "../src/index.ts";

describe("oversizedForWindow", () => {
  it("admits a request that fits the window exactly", () => {
    expect(oversizedForWindow({ assets: 20, assetsWithCopy: 0, audiences: 3, maxEvaluations: 60 }, 60)).toBeNull();
  });

  it("names the count, how it arises and the limit", () => {
    expect(oversizedForWindow({ assets: 20, assetsWithCopy: 20, audiences: 5, maxEvaluations: 200 }, 60)).toBe(
      "This request needs up to 200 scoring evaluations (20 assets × 5 audiences × 2 with copy); one request may use at most 60, the key's rate limit per minute. Send fewer assets or audiences.",
    );
    expect(oversizedForWindow({ assets: 20, assetsWithCopy: 0, audiences: 4, maxEvaluations: 80 }, 60)).toContain("80 scoring evaluations (20 assets × 4 audiences)");
    expect(oversizedForWindow({ assets: 20, assetsWithCopy: 7, audiences: 3, maxEvaluations: 81 }, 60)).toContain("81 scoring evaluations (20 assets, 7 of them with copy at 2 each, × 3 audiences)");
  });
});
