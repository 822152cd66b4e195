import { describe, expect, it } from "vitest";
import { keptEvaluationKey, type KeyedJob } from "../../src/operations/rank/kept-evaluation-key.ts";

const job: KeyedJob = {
  image: { ref: "a".repeat(64), mime: "image/jpeg", width: 800, height: 600 },
  layer: "full-ad-package",
  copy: { adHeadline: "Run further", adBody: "Grip that holds." },
  persona: {
    audience: { name: "Trail runners", description: "Weekend runners", demographics: { ageRange: "25-34", incomeLevel: "middle" } },
    goal: "click-through-rate",
    assetType: "Social Media Post",
    platform: "instagram",
    campaignType: null,
  },
};
const METHOD = "0123456789abcdef";

describe("the key of a kept evaluation", () => {
  it("is the same for the same job, whatever its key order, ids or deadline", () => {
    const reordered: KeyedJob & { jobId: string } = {
      jobId: "another-request_3_full",
      persona: {
        campaignType: null,
        platform: "instagram",
        assetType: "Social Media Post",
        goal: "click-through-rate",
        audience: { demographics: { incomeLevel: "middle", ageRange: "25-34" }, description: "Weekend runners", name: "Trail runners" },
      },
      copy: { adBody: "Grip that holds.", adHeadline: "Run further" },
      layer: "full-ad-package",
      image: { height: 600, width: 800, mime: "image/jpeg", ref: "a".repeat(64) },
    };
    expect(keptEvaluationKey(reordered, METHOD)).toBe(keptEvaluationKey(job, METHOD));
    expect(keptEvaluationKey(job, METHOD)).toMatch(/^[a-f0-9]{64}$/);
  });

  it("changes with the image, the layer, the copy, every persona field and the method key", () => {
    const persona = job.persona;
    const changed: Array<[string, KeyedJob, string?]> = [
      ["image", { ...job, image: { ...job.image, ref: "b".repeat(64) } }],
      ["layer", { ...job, layer: "image-only" }],
      ["copy text", { ...job, copy: { ...job.copy, adHeadline: "Run further today" } }],
      ["no copy", { ...job, copy: null }],
      ["audience name", { ...job, persona: { ...persona, audience: { ...persona.audience, name: "Road runners" } } }],
      ["description", { ...job, persona: { ...persona, audience: { ...persona.audience, description: "Daily runners" } } }],
      ["demographics", { ...job, persona: { ...persona, audience: { ...persona.audience, demographics: { ageRange: "35-44", incomeLevel: "middle" } } } }],
      ["a demographic added", { ...job, persona: { ...persona, audience: { ...persona.audience, demographics: { ...persona.audience.demographics, region: "EU" } } } }],
      ["goal", { ...job, persona: { ...persona, goal: "purchase-intent" } }],
      ["asset type", { ...job, persona: { ...persona, assetType: "Logo" } }],
      ["platform", { ...job, persona: { ...persona, platform: "tiktok" } }],
      ["campaign type", { ...job, persona: { ...persona, platform: null, campaignType: "reels" } }],
      ["method key", job, "fedcba9876543210"],
    ];
    const base = keptEvaluationKey(job, METHOD);
    const keys = changed.map(([what, j, method]) => [what, keptEvaluationKey(j, method ?? METHOD)] as const);
    for (const [what, key] of keys) expect(key, what).not.toBe(base);
    expect(new Set(keys.map(([, k]) => k)).size).toBe(changed.length);
  });
});
