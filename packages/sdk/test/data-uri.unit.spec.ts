import { describe, expect, it } from "vitest";
import { ImageError, imageBytesToDataUri, MAX_IMAGE_BYTES, sniffImageType } from "../src/index.ts";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("did not throw");
};

describe("image bytes to a data URI", () => {
  it("recognizes PNG, JPEG, WebP and GIF by their first bytes", () => {
    expect(sniffImageType(PNG)).toBe("image/png");
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("GIF89a"))).toBe("image/gif");
    expect(sniffImageType(new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt "))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("<svg xmlns="))).toBeNull();
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
  });

  it("encodes the bytes as base64 under the sniffed type, also from a view into a larger buffer", () => {
    expect(imageBytesToDataUri(PNG)).toBe(`data:image/png;base64,${Buffer.from(PNG).toString("base64")}`);
    const padded = new Uint8Array(PNG.length + 4);
    padded.set(PNG, 2);
    expect(imageBytesToDataUri(padded.subarray(2, 2 + PNG.length))).toBe(imageBytesToDataUri(PNG));
  });

  it("refuses bytes that are no image, with a typed error", () => {
    const err = failure(() => imageBytesToDataUri(new TextEncoder().encode("%PDF-1.7")));
    expect(err).toBeInstanceOf(ImageError);
    expect(err).toMatchObject({ kind: "not-an-image", path: null, size: 8, message: "The image is not a PNG, JPEG, WebP or GIF image." });
  });

  it("refuses more than the server's 10 MiB, whatever the bytes are", () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    expect(failure(() => imageBytesToDataUri(big))).toMatchObject({ kind: "too-large", size: MAX_IMAGE_BYTES + 1, message: "The image is 10.1 MiB, more than the 10 MiB the API accepts for one image." });
    expect(imageBytesToDataUri(big.subarray(0, MAX_IMAGE_BYTES))).toMatch(/^data:image\/png;base64,/);
  });
});
