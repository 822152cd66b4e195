import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { imageNamesIn, MIN_STORED_IMAGE_CHARS, restoreImages, tokenizeImages } from "../src/index.ts";

// Long data URIs are cut out of a stored body and kept once each, by content; the body comes
// back byte for byte or not at all.

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
/** A base64 PNG data URI of `bytes` pseudo-random bytes seeded by `seed`: long enough to be cut out. */
function dataUri(seed: number, bytes = 1_024, type = "image/png"): string {
  const buffer = Buffer.alloc(bytes);
  let x = seed;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    buffer[i] = x >>> 24;
  }
  return `data:${type};base64,${buffer.toString("base64")}`;
}

const A = dataUri(1);
const B = dataUri(2, 2_000, "image/jpeg");

/** A rank response as the gateway writes it: asset_url echoes the submitted data URI. */
const rankResponse = (urls: string[]) =>
  JSON.stringify({
    request_id: "7f3c2a91-5b6e-4d08-9c4a-1e2f8b7d6a35",
    ranked: urls.map((url, i) => ({ rank: i + 1, asset_url: url, asset_id: `asset-${i}`, score: 3.5 - i / 10, rationale: "Clear product and offer." })),
    errors: [],
  });

describe("tokenizeImages and restoreImages", () => {
  it("stores two equal data URIs and one other as 2 images, and restores the body byte for byte", () => {
    const text = rankResponse([A, B, A]);
    const { template, images } = tokenizeImages(text, sha256);
    expect(images.size).toBe(2);
    expect(images.get(sha256(A))).toBe(A);
    expect(images.get(sha256(B))).toBe(B);
    expect(template).not.toContain("data:image");
    expect(template.length).toBeLessThan(text.length - A.length - B.length);
    expect(imageNamesIn(template).sort()).toEqual([sha256(A), sha256(B)].sort());
    const restored = restoreImages(template, images);
    expect(restored).toBe(text);
    expect(Buffer.from(restored).equals(Buffer.from(text))).toBe(true);
  });

  it("leaves short data URIs inline", () => {
    const short = `data:image/png;base64,${"A".repeat(MIN_STORED_IMAGE_CHARS - 40)}`;
    expect(short.length).toBeLessThan(MIN_STORED_IMAGE_CHARS);
    const text = rankResponse([short, A]);
    const { template, images } = tokenizeImages(text, sha256);
    expect([...images.keys()]).toEqual([sha256(A)]);
    expect(template).toContain(short);
    expect(restoreImages(template, images)).toBe(text);
  });

  it("finds no image in ordinary text, https URLs or text that only talks about data URIs", () => {
    const text = JSON.stringify({
      asset_url: "https://cdn.example.com/creatives/data:image/png;base64,not-here.png",
      rationale: `The creative reads "data:image/png;base64," as copy, then ${"x".repeat(600)}`,
      note: "data:text/plain;base64," + "QUJD".repeat(200),
      svg: "data:image/svg+xml," + "<svg>".repeat(200),
    });
    const { template, images } = tokenizeImages(text, sha256);
    expect(images.size).toBe(0);
    expect(template).toBe(text);
    expect(imageNamesIn(template)).toEqual([]);
    expect(restoreImages(template, images)).toBe(text);
  });

  it("never takes a body's own text for a token: JSON text carries U+0001 escaped", () => {
    const sneaky = { rationale: `\u0001${sha256(A)}\u0001`, url: A };
    const text = JSON.stringify(sneaky);
    const { template, images } = tokenizeImages(text, sha256);
    expect(imageNamesIn(template)).toEqual([sha256(A)]);
    // Even with no image at all stored, the escaped look-alike is left alone.
    expect(restoreImages(JSON.stringify({ rationale: sneaky.rationale }), new Map())).toBe(JSON.stringify({ rationale: sneaky.rationale }));
    expect(restoreImages(template, images)).toBe(text);
  });

  it("cuts the data URI only, not the JSON around it", () => {
    const text = JSON.stringify({ urls: [A, B], after: "tail" });
    const { template } = tokenizeImages(text, sha256);
    expect(template).toBe(`{"urls":["\u0001${sha256(A)}\u0001","\u0001${sha256(B)}\u0001"],"after":"tail"}`);
  });

  it("refuses to restore a body whose image is missing rather than answer a different one", () => {
    const { template, images } = tokenizeImages(rankResponse([A, B]), sha256);
    images.delete(sha256(B));
    expect(() => restoreImages(template, images)).toThrow(`stored image ${sha256(B)} is missing`);
  });

  it("names each image with the given function, once per distinct image", () => {
    const named: string[] = [];
    const { images } = tokenizeImages(rankResponse([A, A, A]), (uri) => {
      named.push(uri);
      return sha256(uri);
    });
    expect(images.size).toBe(1);
    expect(new Set(named)).toEqual(new Set([A]));
  });
});
