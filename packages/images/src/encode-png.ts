import { crc32, deflateSync } from "node:zlib";

// A dependency-free 8-bit RGB PNG writer: the drift watch's synthetic reference creatives and
// the system tests' creatives are drawn with it, so neither needs an image library.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type Rgb = readonly [number, number, number];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * Encodes a picture given as a colour per pixel, with filter "none" on every row. The deflate
 * level defaults to the strongest, 9: committed files stay small, and the same pixels give the
 * same bytes with the same zlib. -1 is zlib's own default.
 *
 * @example
 * encodeRgbPng(2, 1, (x) => (x === 0 ? [0, 0, 0] : [255, 255, 255])); // a black and a white pixel
 */
export function encodeRgbPng(width: number, height: number, pixel: (x: number, y: number) => Rgb, options: { level?: number } = {}): Buffer {
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    // raw[y * stride] stays 0: filter type "none".
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw.set([r, g, b], y * stride + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", deflateSync(raw, { level: options.level ?? 9 })), chunk("IEND", Buffer.alloc(0))]);
}
