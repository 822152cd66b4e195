import { describe, expect, it } from "vitest";
import { assetCopyContext, copyOfPicked, NO_COPY, ownCopyCount } from "./image-copy.ts";

const SHARED = { headline: "Trail shoes for every season", body: "Shop now." };

describe("the copy each image is sent with", () => {
  it("is the image's own headline and body when it has both", () => {
    expect(assetCopyContext({ headline: "Spring sale: 30% off", body: "Guaranteed grip." }, SHARED)).toEqual({ headline: "Spring sale: 30% off", body: "Guaranteed grip." });
  });

  it("takes the shared field where the image leaves one empty or blank", () => {
    expect(assetCopyContext({ headline: "Spring sale: 30% off", body: "" }, SHARED)).toEqual({ headline: "Spring sale: 30% off", body: "Shop now." });
    expect(assetCopyContext({ headline: "  ", body: "Light and breathable." }, SHARED)).toEqual({ headline: "Trail shoes for every season", body: "Light and breathable." });
    expect(assetCopyContext(undefined, SHARED)).toEqual(SHARED);
  });

  it("leaves out a field neither gives, and is none when no field is given", () => {
    expect(assetCopyContext({ headline: "New for autumn", body: "" }, NO_COPY)).toEqual({ headline: "New for autumn" });
    expect(assetCopyContext(undefined, { headline: "", body: "Shop now." })).toEqual({ body: "Shop now." });
    expect(assetCopyContext(undefined, NO_COPY)).toBeNull();
    expect(assetCopyContext({ headline: " ", body: "" }, { headline: "", body: "\n" })).toBeNull();
  });

  it("sends the text as typed, spaces and all", () => {
    expect(assetCopyContext({ headline: " 30% off ", body: "" }, NO_COPY)).toEqual({ headline: " 30% off " });
  });
});

describe("images with copy of their own", () => {
  const own = { "spring-sale.png": { headline: "30% off", body: "" }, "summer-launch.png": { headline: " ", body: "" }, "gone.png": { headline: "Old", body: "" } };

  it("counts only picked images with a non-blank field", () => {
    expect(ownCopyCount(["spring-sale.png", "summer-launch.png", "autumn-promo.png"], own)).toBe(1);
  });

  it("forgets the copy of an image no longer picked", () => {
    expect(copyOfPicked(["spring-sale.png", "autumn-promo.png"], own)).toEqual({ "spring-sale.png": { headline: "30% off", body: "" } });
  });
});
