import { crc32, deflateSync } from "node:zlib";
import { creative } from "../../support/png.ts";
import type { CorpusContext } from "./types.ts";

/** Written in URLs and case names where the trap's port goes. */
export const TRAP = "TRAP";
export const withTrap = (url: string, ctx: CorpusContext): string => url.replaceAll(TRAP, String(ctx.trapPort));

export const MiB = 1024 * 1024;

export const audience = { name: "Hostile-corpus shoppers", demographics: { ageRange: "25-34" } };

const creatives = new Map<number, string>();
/** A decodable creative as a data URI (cached: the corpus uses a few of them many times). */
export function good(n: number): string {
  let uri = creatives.get(n);
  if (!uri) creatives.set(n, (uri = creative(n)));
  return uri;
}

/** A rank body with one good asset (id `good`) and the hostile one (id `hostile` unless given). */
export const rankWith = (asset: object, extra: object = {}) => ({ assets: [{ url: good(1), id: "good" }, { id: "hostile", ...asset }], audience, ...extra });
/** A rank body with a single good asset, patched. */
export const rankOne = (asset: object = {}, extra: object = {}) => ({ assets: [{ url: good(1), id: "good", ...asset }], audience, ...extra });
/** A pairwise body with one pair whose `a` side is patched. */
export const pairWith = (a: object = {}, extra: object = {}) => ({ pairs: [{ pair_id: "p", a: { id: "a", image_url: good(2), ...a }, b: { id: "b", image_url: good(3) } }], audience, ...extra });

export const dataUri = (mime: string, bytes: Buffer): string => `data:${mime};base64,${bytes.toString("base64")}`;

// ---- Image crafting: headers that lie, and bombs ------------------------------------------

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A well-formed PNG (valid CRCs) whose header claims `width` x `height`, with `idat` as its pixel data. */
export function pngClaiming(width: number, height: number, idat: Buffer, { bitDepth = 8, colourType = 2 } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = colourType;
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", header), pngChunk("IDAT", idat), pngChunk("IEND", Buffer.alloc(0))]);
}

export const deflatedZeros = (bytes: number): Buffer => deflateSync(Buffer.alloc(bytes), { level: 9 });

const uniform = new Map<string, Buffer>();
/**
 * A real, decodable RGB PNG of one grey level: `side` x `side` pixels that inflate to
 * 3·side² bytes but compress to almost nothing. 6000 gives 36 megapixels (108 MB raw,
 * about 100 KB on the wire), just under the 40-megapixel decode limit.
 */
export function uniformPng(side: number, grey = 0): Buffer {
  const key = `${side}/${grey}`;
  let png = uniform.get(key);
  if (!png) {
    const row = side * 3 + 1;
    const raw = Buffer.alloc(row * side, grey);
    for (let y = 0; y < side; y++) raw[y * row] = 0; // filter byte: none
    uniform.set(key, (png = pngClaiming(side, side, deflateSync(raw, { level: 9 }))));
  }
  return png;
}

/** A 1-bit greyscale PNG of side x side black pixels: tiny on the wire, side² pixels decoded. */
export function bitmapBombPng(side: number): Buffer {
  return pngClaiming(side, side, deflateSync(Buffer.alloc((1 + Math.ceil(side / 8)) * side), { level: 9 }), { bitDepth: 1, colourType: 0 });
}

/** A GIF whose logical screen and one frame claim `w` x `h`, with a token of LZW data. */
export function gifClaiming(w: number, h: number): Buffer {
  const le = (n: number) => [n & 0xff, (n >> 8) & 0xff];
  return Buffer.from([
    ...Buffer.from("GIF89a", "ascii"),
    ...le(w), ...le(h), 0x00, 0x00, 0x00, // logical screen: no global colour table
    0x2c, ...le(0), ...le(0), ...le(w), ...le(h), 0x00, // image descriptor
    0x02, 0x02, 0x4c, 0x01, 0x00, // LZW minimum code size, one data sub-block, terminator
    0x3b,
  ]);
}

/** A baseline JPEG header (SOF0, SOS) claiming `w` x `h`, without tables or scan data. */
export function jpegClaiming(w: number, h: number): Buffer {
  return Buffer.from([
    0xff, 0xd8,
    0xff, 0xc0, 0x00, 0x0b, 0x08, (h >> 8) & 0xff, h & 0xff, (w >> 8) & 0xff, w & 0xff, 0x01, 0x01, 0x11, 0x00,
    0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00,
    0xff, 0xd9,
  ]);
}

/** A WebP (VP8X extended header) whose canvas claims `w` x `h`, with no image data. */
export function webpClaiming(w: number, h: number): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write("VP8X", 0, "ascii");
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(w - 1, 12, 3);
  vp8x.writeUIntLE(h - 1, 15, 3);
  const riff = Buffer.alloc(12);
  riff.write("RIFF", 0, "ascii");
  riff.writeUInt32LE(4 + vp8x.length, 4);
  riff.write("WEBP", 8, "ascii");
  return Buffer.concat([riff, vp8x]);
}

/** A valid 1 x 1 GIF. */
export const TINY_GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");

/** The bytes of one of the good creatives. */
export const goodPng = (n: number): Buffer => Buffer.from(good(n).split(",")[1]!, "base64");
