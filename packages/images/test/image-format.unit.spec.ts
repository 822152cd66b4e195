import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { describeBytes, sniffImageFormat } from "../src/image-format.ts";

const blank = sharp({ create: { width: 4, height: 4, channels: 3, background: "#888" } });

describe("sniffImageFormat", () => {
  it.each(["png", "jpeg", "webp", "gif"] as const)("recognises %s by its bytes", async (format) => {
    expect(sniffImageFormat(await blank.clone()[format]().toBuffer())).toBe(format);
  });

  it("recognises nothing else, however it starts", async () => {
    expect(sniffImageFormat(await blank.clone().tiff().toBuffer())).toBeNull();
    expect(sniffImageFormat(await blank.clone().avif().toBuffer())).toBeNull();
    expect(sniffImageFormat(Buffer.from("RIFF\0\0\0\0WAVEfmt "))).toBeNull();
    expect(sniffImageFormat(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffImageFormat(new Uint8Array())).toBeNull();
  });
});

describe("describeBytes", () => {
  it("names what a user sent instead of an image", async () => {
    expect(describeBytes(Buffer.from("%PDF-1.7\n"))).toBe("a PDF document");
    expect(describeBytes(await blank.clone().tiff().toBuffer())).toBe("a TIFF image, which is not accepted");
    expect(describeBytes(await blank.clone().avif().toBuffer())).toBe("an HEIC/AVIF or video file, which is not accepted");
    expect(describeBytes(Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe("an SVG image, which is not accepted");
    expect(describeBytes(Buffer.from("<!DOCTYPE html><title>404</title>"))).toBe("an HTML page");
    expect(describeBytes(Buffer.from("just words"))).toBe("text");
    expect(describeBytes(Buffer.from([0, 1, 2, 3, 250, 0, 0, 7]))).toBe("not an image in a known format");
    expect(describeBytes(new Uint8Array())).toBe("empty");
  });
});
