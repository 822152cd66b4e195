import { describe, expect, it } from "vitest";
import { PairwiseRequest, RankRequest, normalizeCopy } from "../src/index.ts";

describe("a request that uses every field of the spec", () => {
  it("parses, with aliases normalized and defaults applied where absent", () => {
    const body = {
      assets: [
        {
          url: "https://cdn.example.com/hero.png",
          id: "hero-1",
          asset_type: "Advertisement",
          copy_context: { businessName: "Acme", primaryText: "Light shoes for long runs.", headline: "Run further", caption: "New", description: "Free returns", cta: "Shop now" },
        },
        { url: "data:image/png;base64,iVBORw0KGgo=" },
      ],
      audience: {
        name: "Trail runners",
        description: "Weekend runners comparing shoes before a race season.",
        demographics: {
          ageRange: "25-34", incomeLevel: "75k-100k", adSkepticism: "high", trustBaseline: "moderate", priceSensitivity: "low",
          categoryFamiliarity: "expert", shoppingIntent: "comparing", urgency: "moderate", brandFamiliarity: "familiar", platformFatigue: "high",
          hobby: "ultramarathons",
        },
      },
      goal: "click-through-rate",
      asset_type: "Product Photo",
      platform: "instagram",
      campaign_type: "reels",
      refine_close_pairs: false,
    };
    const parsed = RankRequest.parse(body);
    expect(parsed.assets[0]!.copy_context).toEqual({ pageName: "Acme", adBody: "Light shoes for long runs.", adHeadline: "Run further", adCaption: "New", adDescription: "Free returns", cta: "Shop now" });
    expect(parsed.assets[1]!.copy_context).toBeUndefined();
    expect(parsed.audience!.demographics).toMatchObject({ ageRange: "25-34", hobby: "ultramarathons" });
    expect(parsed).toMatchObject({ goal: "click-through-rate", asset_type: "Product Photo", platform: "instagram", campaign_type: "reels", refine_close_pairs: false });
  });

  it("applies the spec's defaults", () => {
    const parsed = RankRequest.parse({ assets: [{ url: "https://cdn.example.com/a.jpg" }], audience_id: "aud_1" });
    expect(parsed).toMatchObject({ goal: "purchase-intent", asset_type: "Social Media Post", refine_close_pairs: true });
  });

  it("parses a full pairwise request", () => {
    const parsed = PairwiseRequest.parse({
      pairs: [{ pair_id: "p1", a: { id: "a", image_url: "https://cdn.example.com/a.png" }, b: { id: "b", image_url: "data:image/jpeg;base64,/9j/" } }],
      audience: { name: "x" },
      goal: "engagement",
      platform: "tiktok",
      campaign_type: "feed",
    });
    expect(parsed.pairs).toHaveLength(1);
    expect(parsed.goal).toBe("engagement");
  });
});

describe("normalizeCopy", () => {
  it("lets the preferred key win over its alias", () => {
    expect(normalizeCopy({ adHeadline: "Preferred", headline: "Alias" })).toEqual({ adHeadline: "Preferred" });
  });
  it("takes the first alias in the spec's order when several are given", () => {
    expect(normalizeCopy({ copy: "c", primaryText: "p" })).toEqual({ adBody: "p" });
  });
});
