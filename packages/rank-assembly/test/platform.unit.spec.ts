import { describe, expect, it } from "vitest";
import { effectivePlatform } from "../src/index.ts";

describe("effectivePlatform", () => {
  it.each([
    ["reels", "instagram"],
    ["stories", "instagram"],
    ["shorts", "google"],
    ["feed", "meta"],
  ])("maps the campaign type %s to %s when platform is omitted", (campaignType, platform) => {
    expect(effectivePlatform(undefined, campaignType)).toBe(platform);
  });

  it("prefers platform over campaign_type", () => {
    expect(effectivePlatform("tiktok", "reels")).toBe("tiktok");
    expect(effectivePlatform("Pinterest", undefined)).toBe("Pinterest");
  });

  it("names no platform for an unknown campaign type, or none at all", () => {
    expect(effectivePlatform(undefined, "airport lounge screens")).toBeNull();
    expect(effectivePlatform(undefined, undefined)).toBeNull();
    expect(effectivePlatform(null, "  ")).toBeNull();
  });
});
