import { describe, expect, it } from "vitest";
import { pickImages, uniqueName } from "./pick-images.ts";

const png = (name: string) => ({ name, type: "image/png" });

describe("pickImages", () => {
  it("keeps images and says why every other file was skipped", () => {
    const { kept, notices } = pickImages([png("a.png"), { name: "notes.txt", type: "text/plain" }, { name: "logo.svg", type: "image/svg+xml" }, { name: "b.webp", type: "image/webp" }], 0, 20);
    expect(kept.map((f) => f.name)).toEqual(["a.png", "b.webp"]);
    expect(notices).toEqual(["notes.txt is not an image: skipped", "logo.svg is an SVG image; the API takes PNG, JPEG, WebP and GIF: skipped"]);
  });

  it("keeps the first images up to the limit and names the ones left out", () => {
    const files = Array.from({ length: 21 }, (_, i) => png(`ad-${i + 1}.png`));
    const { kept, notices } = pickImages(files, 0, 20);
    expect(kept).toHaveLength(20);
    expect(notices).toEqual(["21 images: only the first 20 were kept (ad-21.png left out)"]);
  });

  it("counts the images already picked", () => {
    const { kept, notices } = pickImages(Array.from({ length: 6 }, (_, i) => png(`n-${i}.png`)), 18, 20);
    expect(kept.map((f) => f.name)).toEqual(["n-0.png", "n-1.png"]);
    expect(notices).toEqual(["24 images: only the first 20 were kept (4 left out)"]);
  });

  it("says nothing when everything fits", () => {
    expect(pickImages([png("a.png")], 3, 20).notices).toEqual([]);
  });
});

describe("uniqueName", () => {
  it("numbers a name that is taken, before its extension", () => {
    expect(uniqueName("ad.png", new Set())).toBe("ad.png");
    expect(uniqueName("ad.png", new Set(["ad.png", "ad (2).png"]))).toBe("ad (3).png");
    expect(uniqueName("clipboard", new Set(["clipboard"]))).toBe("clipboard (2)");
  });

  it("shortens a name too long to be an asset id", () => {
    expect(uniqueName(`${"x".repeat(200)}.png`, new Set()).length).toBeLessThanOrEqual(128);
  });
});
