import { describe, expect, it } from "vitest";
import { planRank, refinementWithoutWork, scoreAssets, type RankRequestInput } from "../src/index.ts";
import { imageOnly } from "./fixtures.ts";

const audience = { name: "Runners" };
const request = (refine: boolean): RankRequestInput => ({
  assets: [{ url: "https://img.example/a.png" }, { url: "https://img.example/b.png" }, { url: "https://img.example/c.png" }],
  goal: "click-through-rate",
  asset_type: "Advertisement",
  refine_close_pairs: refine,
});

describe("refinementWithoutWork", () => {
  it("answers at once, scores raw, when the request turned refinement off", () => {
    const plan = planRank(request(false), audience);
    const { scored } = scoreAssets(plan, [imageOnly(3.2), imageOnly(3.1), imageOnly(2.0)]);
    expect(refinementWithoutWork({ plan, assets: scored })?.report).toEqual({ enabled: false, pairs_evaluated: 0, results: [] });
  });

  it("answers at once, with no panel claimed, when no two scores are closer than 0.30", () => {
    const plan = planRank(request(true), audience);
    const { scored } = scoreAssets(plan, [imageOnly(4.0), imageOnly(3.7), imageOnly(2.0)]);
    const outcome = refinementWithoutWork({ plan, assets: scored });
    expect(outcome?.report).toEqual({ enabled: true, pairs_evaluated: 0, results: [] });
    expect(outcome?.assets.map((a) => a.score)).toEqual([4.0, 3.7, 2.0]);
  });

  it("leaves the work to the panels when a close pair exists", () => {
    const plan = planRank(request(true), audience);
    const { scored } = scoreAssets(plan, [imageOnly(3.2), imageOnly(3.1), imageOnly(2.0)]);
    expect(refinementWithoutWork({ plan, assets: scored })).toBeNull();
  });
});
