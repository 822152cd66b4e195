import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createImageIntake, intakeImage, type IntakeResult, type PreparedImage } from "../src/index.ts";
import { dataUri, decompressionBombPng, photoLike } from "./support/test-images.ts";

function prepared(result: IntakeResult): PreparedImage {
  if (!result.ok) throw new Error(`expected an image, got: ${result.error}`);
  return result.image;
}

function refusal(result: IntakeResult): string {
  if (result.ok) throw new Error("expected a refusal");
  return result.error;
}

/** One sentence for a person: no stack, no path, no newline. */
function expectSentence(error: string): void {
  expect(error).not.toMatch(/\n|\bat \w|\/work\/|node_modules|Error:/);
  expect(error.length).toBeLessThan(300);
}

let photo: Buffer;
beforeAll(async () => {
  photo = await (await photoLike(1280, 800)).png().toBuffer();
});

describe("data URIs of the four formats", () => {
  it.each(["png", "jpeg", "webp", "gif"] as const)("accepts %s and normalizes it to a JPEG inside 1024 x 1024", async (format) => {
    // GIF encoding (palette quantization) is slow at full effort; the test only needs a GIF.
    const encoder = sharp(photo);
    const bytes = await (format === "gif" ? encoder.gif({ effort: 1, dither: 0 }) : encoder[format]()).toBuffer();
    const image = prepared(await intakeImage(dataUri(`image/${format}`, bytes)));
    expect(image.mime).toBe("image/jpeg");
    expect([image.width, image.height]).toEqual([1024, 640]);
    expect(image.source).toEqual({ format, width: 1280, height: 800, byteLength: bytes.byteLength });
    expect(image.hasVisualContent).toBe(true);
    const decoded = await sharp(image.bytes).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(["jpeg", 1024, 640]);
    expect(image.ref).toMatch(/^[0-9a-f]{64}$/);
  });

  it("never enlarges a small image", async () => {
    const bytes = await (await photoLike(300, 200)).png().toBuffer();
    const image = prepared(await intakeImage(dataUri("image/png", bytes)));
    expect([image.width, image.height]).toEqual([300, 200]);
  });

  it("applies EXIF orientation and strips metadata", async () => {
    const bytes = await (await photoLike(200, 100)).jpeg().withExif({ IFD0: { Copyright: "secret owner" } }).withMetadata({ orientation: 6 }).toBuffer();
    const image = prepared(await intakeImage(dataUri("image/jpeg", bytes)));
    expect([image.width, image.height]).toEqual([100, 200]);
    expect([image.source.width, image.source.height]).toEqual([100, 200]);
    const meta = await sharp(image.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(Buffer.from(image.bytes).includes("secret owner")).toBe(false);
  });

  it("flattens transparency onto white", async () => {
    const bytes = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const image = prepared(await intakeImage(dataUri("image/png", bytes)));
    const { channels } = await sharp(image.bytes).stats();
    expect(channels.slice(0, 3).map((c) => Math.round(c.mean))).toEqual([255, 255, 255]);
  });

  it("keeps only the first frame of an animated GIF", async () => {
    const frame = (r: number, b: number) => sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g: 0, b } } }).png().toBuffer();
    const gif = await sharp([await frame(255, 0), await frame(0, 255)], { join: { animated: true } }).gif().toBuffer();
    const image = prepared(await intakeImage(dataUri("image/gif", gif)));
    expect([image.width, image.height]).toEqual([40, 30]);
    const { channels } = await sharp(image.bytes).stats();
    expect(channels[0]!.mean).toBeGreaterThan(200); // red
    expect(channels[2]!.mean).toBeLessThan(50);
  });
});

describe("data URIs that are refused", () => {
  it("refuses a data URI that is not an image type", async () => {
    const error = refusal(await intakeImage(`data:text/plain;base64,${Buffer.from("hello").toString("base64")}`));
    expect(error).toBe("data URIs must be image/png, image/jpeg, image/webp or image/gif, and this one is text/plain");
  });

  it("refuses an image/png data URI holding text", async () => {
    const error = refusal(await intakeImage(dataUri("image/png", Buffer.from("this is not a picture at all"))));
    expect(error).toBe("the data URI says image/png but the bytes are text");
  });

  it("refuses a data URI whose declared type differs from its bytes", async () => {
    const jpeg = await sharp(photo).jpeg().toBuffer();
    const result = await intakeImage(dataUri("image/png", jpeg));
    expect(result).toMatchObject({ ok: false, kind: "not-an-image", error: "the data URI says image/png but the bytes are a JPEG image" });
  });

  it("refuses a data URI that is not base64", async () => {
    const error = refusal(await intakeImage("data:image/png,%89PNG%0D%0A"));
    expect(error).toContain("not base64-encoded");
  });

  it("refuses SVG, which could carry scripts and external references", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(refusal(await intakeImage(dataUri("image/svg+xml", svg)))).toContain("this one is image/svg+xml");
    expect(refusal(await intakeImage(dataUri("image/png", svg)))).toBe("the data URI says image/png but the bytes are an SVG image, which is not accepted");
  });

  it.each(["png", "jpeg"] as const)("refuses a truncated %s with a sentence", async (format) => {
    const bytes = await sharp(photo)[format]().toBuffer();
    const result = await intakeImage(dataUri(`image/${format}`, bytes.subarray(0, Math.floor(bytes.length / 2))));
    expect(result).toMatchObject({ ok: false, kind: "undecodable" });
    expect(refusal(result)).toMatch(/is truncated or corrupt and could not be decoded$/);
    expectSentence(refusal(result));
  });

  it("refuses a corrupt header", async () => {
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    expect(refusal(await intakeImage(dataUri("image/png", bytes)))).toBe("the PNG image is corrupt: its header could not be read");
  });

  it("refuses a 20,000 x 20,000 px decompression bomb from its header, in well under a second", async () => {
    const bomb = decompressionBombPng(20_000);
    expect(bomb.byteLength).toBeLessThan(100_000);
    const started = performance.now();
    const result = await intakeImage(dataUri("image/png", bomb));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({
      ok: false,
      kind: "too-many-pixels",
      error: "the image is 20000 x 20000 pixels (400 megapixels), over the 40 megapixel limit",
    });
  });

  it("has a configurable pixel limit", async () => {
    const bytes = await (await photoLike(300, 200)).png().toBuffer();
    expect(refusal(await intakeImage(dataUri("image/png", bytes), { maxInputPixels: 50_000 }))).toContain("over the 0.1 megapixel limit");
  });

  it("refuses a data URI over 10 MiB decoded before decoding it", async () => {
    const uri = `data:image/png;base64,${"A".repeat(Math.ceil((12 * 1024 * 1024 * 4) / 3))}`;
    const result = await intakeImage(uri);
    expect(result).toMatchObject({ ok: false, kind: "too-large", error: "the data URI holds 12 MiB of image data, over the 10 MiB limit" });
  });
});

describe("URLs refused before any network traffic", () => {
  it.each([
    ["http://images.example.com/a.png", "only https:// image URLs and data:image/ URIs are accepted, not http: URLs"],
    ["ftp://images.example.com/a.png", "only https:// image URLs and data:image/ URIs are accepted, not ftp: URLs"],
    ["file:///etc/passwd", "only https:// image URLs and data:image/ URIs are accepted, not file: URLs"],
    ["javascript:alert(1)", "only https:// image URLs and data:image/ URIs are accepted, not javascript: URLs"],
    ["not a url", "the image URL could not be parsed"],
    ["https://user:secret@images.example.com/a.png", "image URLs must not carry a user name or password"],
    ["https://:secret@images.example.com/a.png", "image URLs must not carry a user name or password"],
  ])("%s", async (url, error) => {
    let resolved = 0;
    const result = await intakeImage(url, { resolver: async () => (resolved++, []) });
    expect(result).toMatchObject({ ok: false, kind: "unsupported-source", error });
    expect(resolved).toBe(0);
  });
});

describe("hasVisualContent", () => {
  it("is false for a uniform colour, even a large one", async () => {
    const bytes = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366cc" } }).jpeg().toBuffer();
    expect(prepared(await intakeImage(dataUri("image/jpeg", bytes))).hasVisualContent).toBe(false);
  });

  it("is false for an 8 x 8 image, even a noisy one", async () => {
    const bytes = await (await photoLike(8, 8)).png().toBuffer();
    expect(prepared(await intakeImage(dataUri("image/png", bytes))).hasVisualContent).toBe(false);
  });

  it("is true for a real picture and for a 9 x 9 noisy image", async () => {
    expect(prepared(await intakeImage(dataUri("image/png", photo))).hasVisualContent).toBe(true);
    const bytes = await (await photoLike(9, 9)).png().toBuffer();
    expect(prepared(await intakeImage(dataUri("image/png", bytes))).hasVisualContent).toBe(true);
  });

  it("is true for a white page with a little black text-like mark", async () => {
    const mark = await sharp({ create: { width: 120, height: 20, channels: 3, background: "#000" } }).png().toBuffer();
    const bytes = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#fff" } }).composite([{ input: mark, top: 190, left: 240 }]).png().toBuffer();
    expect(prepared(await intakeImage(dataUri("image/png", bytes))).hasVisualContent).toBe(true);
  });
});

describe("the prepared-image cache", () => {
  it("decodes the same source once and serves it again from the cache", async () => {
    const intake = createImageIntake();
    const uri = dataUri("image/png", photo);
    const first = prepared(await intake.intake(uri));
    const started = performance.now();
    const second = prepared(await intake.intake(uri));
    const hitMs = performance.now() - started;
    expect(second).toBe(first);
    expect(intake.cacheStats()).toMatchObject({ entries: 1, hits: 1, misses: 1 });
    expect(hitMs).toBeLessThan(100);
  });

  it("decodes concurrent intakes of one source once", async () => {
    const intake = createImageIntake();
    const uri = dataUri("image/png", photo);
    const [a, b] = await Promise.all([intake.intake(uri), intake.intake(uri)]);
    expect(prepared(a)).toBe(prepared(b));
    expect(intake.cacheStats().misses).toBe(1);
  });

  it("stays within its byte budget", async () => {
    const intake = createImageIntake({ cacheBytes: 1 });
    await intake.intake(dataUri("image/png", photo));
    expect(intake.cacheStats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("refuses a nonsensical limit at creation", () => {
    expect(() => createImageIntake({ maxBytes: -1 })).toThrow(/maxBytes/);
    expect(() => createImageIntake({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createImageIntake({ maxRedirects: 0, cacheBytes: 0 })).not.toThrow();
  });
});

describe("the loopback test setting", () => {
  it("warns loudly when it is switched on, and only then", () => {
    const warnings: string[] = [];
    createImageIntake({ onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    createImageIntake({ allowLoopback: true, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual(["image intake allows loopback addresses: test setting, never in production"]);
  });
});
