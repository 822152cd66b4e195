import { describe, expect, it } from "vitest";
import { layersFor, planRank, type RankRequestInput } from "../src/index.ts";

const request = (over: Partial<RankRequestInput> = {}): RankRequestInput => ({
  assets: [{ url: "https://example.com/a.png" }],
  goal: "purchase-intent",
  asset_type: "Social Media Post",
  refine_close_pairs: true,
  ...over,
});
const audience = { name: "Busy parents", description: "shopping for school", demographics: { ageRange: "35-44" } };

describe("planRank", () => {
  it("gives every asset the request-level asset_type unless it has its own", () => {
    const plan = planRank(
      request({ asset_type: "Advertisement", assets: [{ url: "https://x/1.png" }, { url: "https://x/2.png", asset_type: "Logo", id: "two" }] }),
      audience,
    );
    expect(plan.assetType).toBe("Advertisement");
    expect(plan.assets.map((a) => a.assetType)).toEqual(["Advertisement", "Logo"]);
    expect(plan.assets.map((a) => a.persona.assetType)).toEqual(["Advertisement", "Logo"]);
    expect(plan.assets.map((a) => a.assetId)).toEqual([null, "two"]);
    expect(plan.assets.map((a) => a.index)).toEqual([0, 1]);
  });

  it("reserves 1 evaluation per asset plus 1 per asset with copy_context", () => {
    const plan = planRank(
      request({
        assets: [{ url: "u1" }, { url: "u2", copy_context: { adHeadline: "Hi" } }, { url: "u3", copy_context: { adBody: "Buy" } }, { url: "u4" }],
      }),
      audience,
    );
    expect(plan.maxEvaluations).toBe(6);
    expect(plan.assets.map((a) => a.copy)).toEqual([null, { adHeadline: "Hi" }, { adBody: "Buy" }, null]);
  });

  it("passes the caller's demographics through so the persona can state which values are defaults", () => {
    const plan = planRank(request(), audience);
    const persona = plan.assets[0]!.persona;
    expect(persona.goal).toBe("purchase-intent");
    expect(persona.audience.name).toBe("Busy parents");
    expect(persona.audience.description).toBe("shopping for school");
    expect(persona.audience.demographics).toEqual({ ageRange: "35-44" });
    expect(plan.audienceName).toBe("Busy parents");
  });

  it("keeps extra demographic keys as text and drops values a persona cannot use", () => {
    const plan = planRank(request(), { name: "n", demographics: { region: "EU", households: 3, pets: true, nested: { a: 1 }, none: null } });
    const d = plan.assets[0]!.persona.audience.demographics;
    expect(d).toMatchObject({ region: "EU", households: "3", pets: "true" });
    expect(d).not.toHaveProperty("nested");
    expect(d).not.toHaveProperty("none");
    expect(plan.assets[0]!.persona.audience).not.toHaveProperty("description");
  });

  it("takes the platform from `platform` and ignores campaign_type then", () => {
    const plan = planRank(request({ platform: "linkedin", campaign_type: "reels" }), audience);
    expect(plan.platform).toBe("linkedin");
    expect(plan.assets[0]!.persona).toMatchObject({ platform: "linkedin", campaignType: null });
  });

  it("maps campaign_type to its platform when platform is omitted and passes it as placement context", () => {
    const plan = planRank(request({ campaign_type: "Reels" }), audience);
    expect(plan.platform).toBe("instagram");
    expect(plan.assets[0]!.persona).toMatchObject({ platform: "instagram", campaignType: "Reels" });
  });

  it("keeps an unknown platform as the caller wrote it", () => {
    expect(planRank(request({ platform: "Snapchat" }), audience).platform).toBe("Snapchat");
  });

  it("uses an unknown campaign_type as free-text context without inventing a platform", () => {
    const plan = planRank(request({ campaign_type: "billboard takeover" }), audience);
    expect(plan.platform).toBeNull();
    expect(plan.assets[0]!.persona).toMatchObject({ platform: null, campaignType: "billboard takeover" });
  });

  it("has no platform when neither is given", () => {
    const plan = planRank(request(), audience);
    expect(plan.platform).toBeNull();
    expect(plan.assets[0]!.persona).toMatchObject({ platform: null, campaignType: null });
    expect(plan.refineClosePairs).toBe(true);
  });
});

describe("layersFor", () => {
  it("runs one image-only evaluation for an asset without copy", () => {
    expect(layersFor({ copy: null }, { hasVisualContent: true })).toEqual(["image-only"]);
    expect(layersFor({ copy: null }, { hasVisualContent: false })).toEqual(["image-only"]);
  });

  it("runs the full ad package and an image-only ablation for copy on a real picture", () => {
    expect(layersFor({ copy: { adBody: "x" } }, { hasVisualContent: true })).toEqual(["full-ad-package", "image-only"]);
  });

  it("judges copy on a picture without visual content as copy-only, once", () => {
    expect(layersFor({ copy: { adBody: "x" } }, { hasVisualContent: false })).toEqual(["copy-only"]);
  });
});
