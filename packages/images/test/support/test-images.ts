import { deflateSync, crc32 } from "node:zlib";
import sharp from "sharp";
import type { Sharp } from "sharp";

/** A picture with structure: a colour gradient with noise, like a photo rather than a flat fill. */
export async function photoLike(width: number, height: number): Promise<Sharp> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed % 41) - 20;
      const i = (y * width + x) * 3;
      pixels[i] = clamp((255 * x) / width + noise);
      pixels[i + 1] = clamp((255 * y) / height + noise);
      pixels[i + 2] = clamp(128 + 90 * Math.sin(x / 37) * Math.cos(y / 23) + noise);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

function clamp(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}

export function dataUri(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid 1-bit greyscale PNG of side x side pixels, all black: about 50 KB on disk for
 * 20,000 x 20,000, and 400 million pixels once decoded.
 */
export function decompressionBombPng(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
