import { describe, expect, it } from "vitest";
import { ASSET_TYPES, PairwiseRequest, RankRequest, parseWith } from "../src/index.ts";

type Body = Record<string, unknown>;
const side = (id: string, extra: Body = {}) => ({ id, image_url: `https://cdn.example.com/${id}.png`, ...extra });
const pairwise = (a: Body = {}, b: Body = {}) => ({ pairs: [{ pair_id: "p1", a: side("a", a), b: side("b", b) }], audience_id: "aud_1" });
const rank = (asset: Body) => ({ assets: [{ url: "https://cdn.example.com/a.png", ...asset }], audience_id: "aud_1" });

describe("PairwiseAsset.asset_type (optional, v1-additive)", () => {
  it("accepts every asset type of the contract on either side", () => {
    for (const type of ASSET_TYPES) {
      const parsed = PairwiseRequest.parse(pairwise({ asset_type: type }, { asset_type: type }));
      expect(parsed.pairs[0]!.a.asset_type).toBe(type);
      expect(parsed.pairs[0]!.b.asset_type).toBe(type);
    }
  });

  it("lets the two sides of a pair differ, and either leave it out", () => {
    const parsed = PairwiseRequest.parse(pairwise({ asset_type: "Logo" }));
    expect(parsed.pairs[0]!.a.asset_type).toBe("Logo");
    expect(parsed.pairs[0]!.b).not.toHaveProperty("asset_type");
    // No default: an unstated type stays unstated, unlike the rank request's "Social Media Post".
    expect(PairwiseRequest.parse(pairwise()).pairs[0]!.a.asset_type).toBeUndefined();
  });

  it.each([
    ["an unknown type", "Billboard"],
    ["a type in the wrong case", "logo"],
    ["a number", 3],
    ["null", null],
  ])("rejects %s with the same 422 field error as the rank request", (_name, value) => {
    const result = parseWith(PairwiseRequest, pairwise({}, { asset_type: value }));
    const rankResult = parseWith(RankRequest, rank({ asset_type: value }));
    expect(result.ok).toBe(false);
    expect(rankResult.ok).toBe(false);
    if (result.ok || rankResult.ok) return;
    expect(result.error.status).toBe(422);
    expect(result.error.body.field).toBe("pairs[0].b.asset_type");
    // Same shape and sentence as rank's, only the field differs.
    expect(result.error.body).toEqual({ ...rankResult.error.body, error: rankResult.error.body.error.replace("assets[0].asset_type", "pairs[0].b.asset_type"), field: "pairs[0].b.asset_type" });
  });

  it("is not a request-level field of pairwise", () => {
    const result = parseWith(PairwiseRequest, { ...pairwise(), asset_type: "Logo" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.body.field).toBe("asset_type");
  });
});
