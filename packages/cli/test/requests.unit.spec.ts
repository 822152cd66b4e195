import { describe, expect, it } from "vitest";
import { parseArgs } from "node:util";
import { audienceOf } from "../src/requests/audience-from-flags.ts";
import { createAudienceRequestOf } from "../src/requests/audience-request.ts";
import { pairwiseRequestOf } from "../src/requests/pairwise-request.ts";
import { rankRequestOf } from "../src/requests/rank-request.ts";
import { UsageError } from "../src/usage-error.ts";

const image = (name: string) => ({ name, dataUri: `data:image/png;base64,${Buffer.from(name).toString("base64")}` });

describe("flags to requests", () => {
  it("maps rank flags to the body, file names as asset ids, copy only where given, omitted flags omitted", () => {
    const body = rankRequestOf({ "audience-id": "aud_1", goal: "scroll-stopping", "asset-type": "Advertisement", platform: "tiktok", refine: false }, [image("a.png"), image("b.png")], [null, { headline: "Go" }]);
    expect(body).toEqual({
      assets: [
        { url: image("a.png").dataUri, id: "a.png" },
        { url: image("b.png").dataUri, id: "b.png", copy_context: { headline: "Go" } },
      ],
      audience_id: "aud_1",
      goal: "scroll-stopping",
      asset_type: "Advertisement",
      platform: "tiktok",
      refine_close_pairs: false,
    });
    expect(rankRequestOf({ "audience-name": "Runners", "audience-description": "after work" }, [image("a.png")], [null])).toEqual({ assets: [{ url: image("a.png").dataUri, id: "a.png" }], audience: { name: "Runners", description: "after work" } });
  });

  it("reads --refine and --no-refine, and leaves refinement to the server when neither is given", () => {
    const refineOf = (args: string[]) => {
      const { values } = parseArgs({ args, allowNegative: true, options: { refine: { type: "boolean" }, "audience-id": { type: "string" } } });
      return rankRequestOf(values, [image("a.png")], [null]).refine_close_pairs;
    };
    expect(refineOf(["--audience-id", "x", "--refine"])).toBe(true);
    expect(refineOf(["--audience-id", "x", "--no-refine"])).toBe(false);
    expect(refineOf(["--audience-id", "x"])).toBeUndefined();
  });

  it("asks for reuse_evaluations with --reuse, and leaves it to the server's default (no reuse) without", () => {
    expect(rankRequestOf({ "audience-id": "x", reuse: true }, [image("a.png")], [null]).reuse_evaluations).toBe(true);
    expect("reuse_evaluations" in rankRequestOf({ "audience-id": "x" }, [image("a.png")], [null])).toBe(false);
  });

  it("wants exactly one of a saved audience and an inline one", () => {
    expect(audienceOf({ "audience-id": "aud_1" })).toEqual({ audience_id: "aud_1" });
    expect(() => audienceOf({})).toThrow(UsageError);
    expect(() => audienceOf({ "audience-id": "aud_1", "audience-name": "Runners" })).toThrow(/not both/);
    expect(() => audienceOf({ "audience-id": "aud_1", "audience-description": "x" })).toThrow(/goes with --audience-name/);
  });

  it("makes one pair of two images named by file, and refuses two of the same name", () => {
    expect(pairwiseRequestOf({ "audience-name": "Runners", goal: "engagement" }, image("a.png"), image("b.png"))).toEqual({
      pairs: [{ pair_id: "pair-1", a: { id: "a.png", image_url: image("a.png").dataUri }, b: { id: "b.png", image_url: image("b.png").dataUri } }],
      audience: { name: "Runners" },
      goal: "engagement",
    });
    expect(() => pairwiseRequestOf({ "audience-name": "R" }, image("x/a.png"), image("x/a.png"))).toThrow(UsageError);
  });

  it("maps audiences create flags to the body, demographics by their kebab-case flags", () => {
    expect(createAudienceRequestOf({ name: "Gravel riders", description: "weekend", "age-range": "25-34", "price-sensitivity": "high", json: true })).toEqual({
      name: "Gravel riders",
      description: "weekend",
      demographics: { ageRange: "25-34", priceSensitivity: "high" },
    });
    expect(createAudienceRequestOf({ name: "Plain" })).toEqual({ name: "Plain" });
    expect(() => createAudienceRequestOf({ name: "  " })).toThrow(/--name/);
  });
});
