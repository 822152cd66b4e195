import { inflateSync } from "node:zlib";
import { encodeRgbPng } from "@adrank/images";

// The synthetic eval fixture's images: written with the project's PNG writer (8-bit RGB,
// filter "none", deflate level 9, so the committed files are small), and read back by the
// fixture's test to compare pixels (not compressed bytes, which a newer zlib may pack differently).

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An image as interleaved 8-bit RGB, row by row. */
export interface RgbImage {
  width: number;
  height: number;
  rgb: Uint8Array;
}

export function encodePng({ width, height, rgb }: RgbImage): Buffer {
  return encodeRgbPng(width, height, (x, y) => {
    const at = (y * width + x) * 3;
    return [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!];
  });
}

/** Decodes a PNG this module wrote (8-bit RGB, no interlace, filter "none"); refuses anything else. */
export function decodePng(png: Buffer): RgbImage {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("ascii", offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[9] !== 2 || body[12] !== 0) throw new Error("only 8-bit RGB PNGs without interlace are read");
    } else if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * 3;
  const rgb = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    if (raw[y * (stride + 1)] !== 0) throw new Error("only filter type 0 (none) is read");
    rgb.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
  }
  return { width, height, rgb };
}
